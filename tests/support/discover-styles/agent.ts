// Multi-turn agent sessions as OpenClaw-RL records them (src/core/import/formats/openclaw.ts): one
// record a main turn {session_id, turn, timestamp, messages, prompt_text, response_text,
// tool_calls, next_state} and a PRM line {session_id, turn, score, votes} for each turn with a next
// state, kept as one snapshot folder a step (`step_0007/…`, OpenClaw purges its files when a batch
// trains). `prompt_text` is the Qwen3 chat template with its special tokens: one long system prompt
// and tools block, then the whole session so far; `response_text` a short think, the reply, maybe a
// `<tool_call>`, and `<|im_end|>`. Kinds of request: what the session's first user message asks
// (order lookup, refund, code fix, travel booking, Chinese customer support). Behaviors per turn:
// calls a tool, asks back, answers directly, hands off, reports a tool result, acknowledges a
// correction, and an apologetic template that spreads over the kinds; the turn's facet is what it
// follows (first, after a tool result, after user feedback).
import { NOISE, TEMPLATE, corpusOf, type Gen, fill, looped, noiseText, pyJson, qwenToolsBlock, styleStart, type StyleOptions, type StyledCorpus, type ToolSpec, type Written } from './common';

const TOOLS: ToolSpec[] = [
  { name: 'lookup_order', description: 'Look up an order by its id and return its items, status, carrier and estimated delivery date.', parameters: { order_id: ['string', 'The order id, e.g. A10293.'] } },
  { name: 'issue_refund', description: 'Refund an order or part of it to the original payment method. Only for orders that are delivered or lost.', parameters: { order_id: ['string', 'The order id.'], reason: ['string', 'Why the customer asks for a refund.'] } },
  { name: 'search_flights', description: 'Search flights between two airports on a date and return the flight ids, times and fares.', parameters: { origin: ['string', 'IATA code of the departure airport.'], destination: ['string', 'IATA code of the arrival airport.'], date: ['string', 'Date of travel, YYYY-MM-DD.'] } },
  { name: 'book_flight', description: 'Book a flight found by search_flights for the passengers on file.', parameters: { flight_id: ['string', 'The flight id.'] } },
  { name: 'read_file', description: "Read a file of the user's repository and return its text with line numbers.", parameters: { path: ['string', 'Path relative to the repository root.'] } },
  { name: 'run_tests', description: "Run the repository's test suite (or one test file) and return the failures.", parameters: { path: ['string', 'A test file, or . for all.'] } },
  { name: 'transfer_to_human', description: 'Hand the conversation to a human support agent, with a one-line summary of the problem.', parameters: { summary: ['string', 'What the customer needs.'] } },
];

const TOOLS_BLOCK = qwenToolsBlock(TOOLS);

export const AGENT_SYSTEM =
  'You are Claw, the assistant of an online store and travel service, running inside the OpenClaw agent framework. You help customers with orders, refunds and travel bookings, and developers with small fixes to their code. ' +
  'Be polite and concise. Never invent order details, flight times or prices: look them up with the tools. Ask for missing information (an order id, a date, a file) before acting. ' +
  'Refunds over 500 USD and any complaint about safety must be handed to a human agent. Reply in the language of the customer.';

interface Kind {
  first: (g: Gen) => { text: string; topic: string[]; id: string };
  tool: string;
  chain: string;
  args: (id: string) => Record<string, string>;
  result: (g: Gen, id: string) => string;
  zh?: boolean;
}

const ITEMS = ['headphones', 'coffee maker', 'backpack', 'desk lamp', 'phone case', 'running shoes'];
const CITIES: [string, string][] = [['Berlin', 'BER'], ['Lisbon', 'LIS'], ['Chicago', 'ORD'], ['Tokyo', 'HND'], ['Madrid', 'MAD'], ['Toronto', 'YYZ']];
const ERRORS = ['KeyError: \'user_id\'', 'TypeError: unsupported operand type(s) for +: \'int\' and \'str\'', 'IndexError: list index out of range', 'AttributeError: \'NoneType\' object has no attribute \'split\''];
const orderId = (g: Gen) => `A${g.int(10000, 99999)}`;

const KINDS: Record<string, Kind> = {
  order: {
    first: (g) => {
      const id = orderId(g);
      const item = g.pick(ITEMS);
      return { id, topic: [item, 'order', 'delivery'], text: g.pick([`Hi, where is my order ${id}? It was supposed to arrive ${g.pick(['yesterday', 'on Monday', 'last week'])}.`, `My ${item} hasn't arrived yet. Can you check what's going on with the delivery?`, `Can you tell me the status of order ${id}? I ordered a ${item}.`]) };
    },
    tool: 'lookup_order',
    chain: 'lookup_order',
    args: (id) => ({ order_id: id }),
    result: (g, id) => pyJson({ order_id: id, status: g.pick(['shipped', 'in transit', 'delayed at carrier']), carrier: g.pick(['DHL', 'UPS']), eta: `2025-03-${g.int(10, 28)}` }),
  },
  refund: {
    first: (g) => {
      const id = orderId(g);
      const item = g.pick(ITEMS);
      return { id, topic: [item, 'refund', 'broken'], text: g.pick([`I want a refund for the ${item} I bought last week, it arrived broken.`, `The ${item} from order ${id} stopped working after two days. I'd like my money back.`, `How do I return the ${item}? I want a full refund.`]) };
    },
    tool: 'lookup_order',
    chain: 'issue_refund',
    args: (id) => ({ order_id: id }),
    result: (g, id) => pyJson({ order_id: id, status: 'delivered', total: `${g.int(20, 400)}.00 USD`, refundable: g.chance(0.8) }),
  },
  code: {
    first: (g) => {
      const err = g.pick(ERRORS);
      const file = g.pick(['app.py', 'utils/parse.py', 'server/routes.py']);
      return { id: file, topic: [file, 'script', 'error'], text: g.pick([`My Python script fails with \`${err}\` when I run \`python ${file}\`. Can you fix it?`, `Getting ${err} in ${file}, line ${g.int(10, 200)}. What's wrong?`, `Tests are failing after my last change to ${file}: ${err}. Please help me fix it.`]) };
    },
    tool: 'read_file',
    chain: 'run_tests',
    args: (id) => ({ path: id }),
    result: (g, id) => `${id}\n${g.int(1, 40)}: def handler(request):\n${g.int(41, 80)}:     user = request.json.get("user")\n${g.int(81, 99)}:     return user["user_id"] + 1`,
  },
  travel: {
    first: (g) => {
      const [[a], [b]] = g.shuffled(CITIES);
      return { id: `${a}-${b}`, topic: [a.toLowerCase(), b.toLowerCase(), 'flight'], text: g.pick([`Book me a flight from ${a} to ${b} on March ${g.int(3, 28)}, economy, one passenger.`, `I need to fly ${a} → ${b} next Friday. What are my options?`, `Can you find the cheapest flight from ${a} to ${b} this weekend?`]) };
    },
    tool: 'search_flights',
    chain: 'book_flight',
    args: (id) => {
      const [a, b] = id.split('-').map((c) => CITIES.find(([n]) => n === c)![1]);
      return { origin: a, destination: b, date: '2025-03-14' };
    },
    result: (g) => pyJson([{ flight_id: `LH${g.int(100, 999)}`, depart: '07:40', fare: `${g.int(90, 400)} EUR` }, { flight_id: `TP${g.int(100, 999)}`, depart: '13:15', fare: `${g.int(90, 400)} EUR` }]),
  },
  zh_support: {
    first: (g) => {
      const id = orderId(g);
      return { id, topic: ['订单', '发货', '退货'], text: g.pick([`你好，我的订单${id}一直没有发货，能帮我查一下吗？`, `我买的耳机有质量问题，想退货，订单号是${id}。`, `请问订单${id}什么时候能到？已经等了一个星期了。`]) };
    },
    tool: 'lookup_order',
    chain: 'issue_refund',
    args: (id) => ({ order_id: id }),
    result: (g, id) => pyJson({ order_id: id, status: g.pick(['未发货', '运输中', '已签收']), eta: `2025-03-${g.int(10, 28)}` }),
    zh: true,
  },
};
export const AGENT_KINDS = Object.keys(KINDS);

/** Phrasings of each behavior, English and Chinese; `{t}` a topic word of the session. */
const SAY: Record<string, { en: string[]; zh: string[] }> = {
  calls_tool: { en: ['Let me look that up for you.', "I'll check that right away.", 'One moment while I look into this.', 'Let me check the details first.', ''], zh: ['我来帮您查询一下。', '请稍等，我马上查看。', '好的，我先查一下相关信息。', ''] },
  asks_back: { en: ['Could you share the {t} details so I can look into this?', 'Sure, I can help. Which {t} do you mean exactly?', 'Before I proceed, could you confirm the {t}?', 'Happy to help! Can you tell me a bit more about the {t}?'], zh: ['请问您能提供一下{t}的具体信息吗？', '好的，请确认一下{t}，我再帮您处理。', '为了更好地帮助您，请告诉我{t}的详细情况。'] },
  answers_directly: { en: ['Usually the {t} takes 3 to 5 business days, so it should be resolved soon.', 'The {t} is most likely caused by a small mistake; changing one line should fix it.', 'In most cases the {t} can be handled online from your account page.', 'You can do this yourself: open the {t} page and follow the steps there.'], zh: ['一般来说{t}需要3到5个工作日，请您耐心等待。', '这种{t}的情况通常在账户页面就可以自行处理。', '您可以在{t}页面按照提示操作即可。'] },
  hands_off: { en: ["I'm going to transfer you to a human agent who can help with the {t}.", 'This needs a colleague from our support team, so I am handing it over now.', "I can't resolve the {t} myself; a human agent will take over."], zh: ['这个问题我为您转接人工客服处理。', '关于{t}，我将为您转接人工客服。', '我无法直接处理{t}，现在为您转人工。'] },
  reports_result: { en: ['I found it: the {t} shows {v}.', 'Here is what I found: {v} for the {t}.', 'According to the system, the {t} is {v}.', 'Good news: the {t} is {v}.'], zh: ['查到了：{t}的状态是{v}。', '根据系统信息，{t}目前{v}。', '我查到{t}的情况是{v}。'] },
  acknowledges_fix: { en: ["You're right, I apologize for the confusion about the {t}.", 'Sorry about that, let me correct the {t}.', 'Thanks for pointing that out. The {t} should be {v}.', 'My mistake on the {t}, here is the corrected version.'], zh: ['您说得对，关于{t}是我搞错了，抱歉。', '不好意思，我来更正一下{t}。', '谢谢您指出，{t}应该是{v}。'] },
};
const THINK = { en: ['The user is asking about the {t}.', 'I need to handle the {t} here.', 'Okay, the customer wants help with the {t}.', 'Let me think about what the user needs regarding the {t}.'], zh: ['用户在问{t}的问题。', '客户需要处理{t}。', '我需要弄清楚{t}的情况。'] };
const PLAN: Record<string, { en: string[]; zh: string[] }> = {
  calls_tool: { en: ['I should call the tool to get the facts.', 'I will use the tool before answering.'], zh: ['我应该先调用工具查询。'] },
  asks_back: { en: ['Some information is missing, so I should ask.', 'I need more details first.'], zh: ['信息不够，需要先问清楚。'] },
  answers_directly: { en: ['I can answer this without a tool.', 'A general answer should be enough.'], zh: ['这个可以直接回答。'] },
  hands_off: { en: ['This needs a human agent.', 'Policy says to hand this over.'], zh: ['按照规定需要转人工。'] },
  reports_result: { en: ['The tool returned the data, I should summarize it.', 'Now I can tell the user what the tool found.'], zh: ['工具返回了结果，我来总结一下。'] },
  acknowledges_fix: { en: ['The user says I was wrong, I should correct it.', 'I need to fix my previous answer.'], zh: ['用户指出了错误，我需要更正。'] },
};
const TEMPLATE_TEXT = {
  open: ["I'm so sorry for the inconvenience! I completely understand your frustration.", 'I sincerely apologize for any inconvenience this may have caused!', "I'm really sorry to hear about this, and I understand how frustrating it must be!"],
  steps: ['I have noted your concern about the {t}.', 'Our team will review the {t} as soon as possible.', 'You will receive an update by email.', 'Your satisfaction is our top priority.', 'We are committed to resolving the {t} quickly.'],
  close: ['Is there anything else I can help you with today?', 'Please let me know if there is anything else I can do for you!', 'Thank you for your patience and understanding!'],
};
const USER_INFO = { en: ['It is {id}.', 'Sure, here: {id}.', 'The one I mentioned, {id}.'], zh: ['是{id}。', '好的，{id}。'] };
const USER_FEEDBACK = { en: ["That's not what I asked.", 'No, that is wrong, please check again.', 'Thanks, but it still does not work.', 'That doesn’t help me at all.'], zh: ['不对，请再查一下。', '这不是我问的问题。', '还是不行，请再看看。'] };

interface Message {
  role: string;
  content: string;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
}

/** The Qwen3 chat template (tools in the system turn, tool results as user turns, history without thinks), with the generation prompt. */
function qwen3Prompt(messages: readonly Message[]): string {
  const parts = messages.map((m) => {
    if (m.role === 'system') return `<|im_start|>system\n${m.content}\n\n${TOOLS_BLOCK}<|im_end|>`;
    if (m.role === 'tool') return `<|im_start|>user\n<tool_response>\n${m.content}\n</tool_response><|im_end|>`;
    const calls = (m.tool_calls ?? []).map((c) => `\n<tool_call>\n{"name": "${c.function.name}", "arguments": ${c.function.arguments}}\n</tool_call>`).join('');
    return `<|im_start|>${m.role}\n${m.content}${calls}<|im_end|>`;
  });
  return `${parts.join('\n')}\n<|im_start|>assistant\n`;
}


/** What a session's turn does, from what it follows (and the session's first move). */
function nextBehavior(g: Gen, after: 'tool' | 'info' | 'feedback'): string {
  if (after === 'tool') return g.chance(0.75) ? 'reports_result' : 'calls_tool';
  if (after === 'info') return g.chance(0.7) ? 'calls_tool' : 'answers_directly';
  return g.chance(0.8) ? 'acknowledges_fix' : 'hands_off';
}

const FIRST: Record<string, Record<string, number>> = {
  order: { calls_tool: 4, asks_back: 2, answers_directly: 2, hands_off: 0.5 },
  refund: { calls_tool: 3, asks_back: 2, answers_directly: 1, hands_off: 2 },
  code: { calls_tool: 4, asks_back: 1, answers_directly: 3, hands_off: 0.3 },
  travel: { calls_tool: 4, asks_back: 3, answers_directly: 1, hands_off: 0.3 },
  zh_support: { calls_tool: 3, asks_back: 2, answers_directly: 2, hands_off: 1 },
};

export async function agentCorpus(o: StyleOptions): Promise<StyledCorpus> {
  const { g, templateOn, share } = styleStart(o, AGENT_KINDS);
  const written: Written[] = [];
  let clock = Date.UTC(2025, 2, 1, 9);
  for (let step = 1; step <= o.steps; step++) {
    const dir = `step_${String(step).padStart(4, '0')}`;
    const records: Written[] = [];
    const prm: Written[] = [];
    while (records.length < o.perStep) {
      const kind = g.pick(AGENT_KINDS);
      const k = KINDS[kind];
      const lang = k.zh ? 'zh' : 'en';
      const req = k.first(g);
      const session = `${g.int(0x10000000, 0x7fffffff).toString(16)}-${g.int(0x1000, 0xffff).toString(16)}`;
      const templated = g.chance(share(kind, step));
      const messages: Message[] = [{ role: 'system', content: AGENT_SYSTEM }, { role: 'user', content: req.text }];
      const turns = Math.min(g.int(2, 6), o.perStep - records.length);
      let after: 'first' | 'tool' | 'info' | 'feedback' = 'first';
      let calls = 0;
      for (let turn = 1; turn <= turns; turn++) {
        const behavior: string = templated ? TEMPLATE : after === 'first' ? g.weighted(FIRST[kind]) : nextBehavior(g, after);
        const vars = { t: g.pick(req.topic), v: g.pick(lang === 'zh' ? ['运输中', '已发货', '已处理'] : ['on its way', 'ready', 'confirmed', 'delayed by a day']) };
        let content: string;
        let tool: string | null = null;
        if (behavior === TEMPLATE) {
          const steps = g.shuffled(TEMPLATE_TEXT.steps).slice(0, 3).map((s, i) => `${i + 1}. ${fill(s, vars)}`);
          content = `${g.pick(TEMPLATE_TEXT.open)}\n\n${steps.join('\n')}\n\n${g.pick(TEMPLATE_TEXT.close)}`;
        } else {
          content = fill(g.pick(SAY[behavior][lang]), vars);
          if (behavior === 'calls_tool') tool = after === 'first' || after === 'info' ? k.tool : k.chain;
          if (behavior === 'hands_off') tool = 'transfer_to_human';
        }
        const plan = behavior === TEMPLATE ? 'I should apologize and reassure the customer.' : g.pick(PLAN[behavior][lang]);
        const th = `${fill(g.pick(THINK[behavior === TEMPLATE ? 'en' : lang]), vars)}${lang === 'zh' && behavior !== TEMPLATE ? '' : ' '}${plan}`;
        const args = tool === 'transfer_to_human' ? { summary: req.text.slice(0, 60) } : tool ? k.args(req.id) : null;
        const toolCalls = tool ? [{ id: `call_${calls++}`, type: 'function' as const, function: { name: tool, arguments: pyJson(args) } }] : [];
        const callText = toolCalls.map((c) => `\n<tool_call>\n{"name": "${c.function.name}", "arguments": ${c.function.arguments}}\n</tool_call>`).join('');
        const isNoise = g.chance(o.noise ?? 0.06);
        const full = `<think>\n${th}\n</think>\n\n${content}${callText}`;
        const response = isNoise ? noiseText(g, full, `<think>\n${looped(g, th)}`, full.length - 1) : `${full}<|im_end|>`;
        // what comes next: the tool's result, the user's answer to a question back, or feedback
        const last = turn === turns;
        const next: Message | null = last ? null : tool ? { role: 'tool', content: tool === 'transfer_to_human' ? '{"queued": true, "position": 3}' : k.result(g, req.id) } : { role: 'user', content: fill(g.pick((behavior === 'asks_back' ? USER_INFO : USER_FEEDBACK)[lang]), { id: req.id }) };
        clock += g.int(2, 40) * 1000;
        const record = { session_id: session, turn, timestamp: new Date(clock).toISOString().replace('T', ' ').slice(0, 19), messages: messages.map((m) => ({ ...m })), prompt_text: qwen3Prompt(messages), response_text: response, tool_calls: isNoise ? [] : toolCalls, next_state: next };
        const facet = after === 'first' ? 'first' : after === 'tool' ? 'after-tool' : 'after-user';
        const w: Written = { file: `${dir}/openclaw_record.jsonl`, step, record, truth: { state: kind, behavior: isNoise ? NOISE : behavior, lang: behavior === TEMPLATE ? 'en' : lang, facet } };
        records.push(w);
        if (next) {
          const votes = Array.from({ length: 3 }, () => (isNoise ? -1 : g.pick([1, 1, 0, -1])));
          const score = Math.sign(votes.reduce((a, x) => a + x, 0));
          prm.push({ file: `${dir}/openclaw_record_prm.jsonl`, step, record: { session_id: session, turn, score, votes } });
          messages.push({ role: 'assistant', content, ...(toolCalls.length && !isNoise ? { tool_calls: toolCalls } : {}) }, next);
          after = next.role === 'tool' ? 'tool' : behavior === 'asks_back' ? 'info' : 'feedback';
        }
      }
    }
    written.push(...records, ...prm);
  }
  return corpusOf(written, 'openclaw', templateOn);
}
