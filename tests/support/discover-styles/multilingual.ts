// Short answers like the lab's own style (tests/support/discover-corpus.ts), asked and answered in
// Chinese, Russian, Arabic, Hindi and English, as generic JSONL {step, prompt, response, reward,
// group_id}. Kinds of request: a capital question and an arithmetic question in each language
// (ten kinds); behaviors phrased in each language: a direct answer, steps, a question back, a
// refusal, a check at the end; a Chinese template (its numbered steps in the request's language)
// spreads over the kinds. For "non-English answers are unclassified no more often than English ones".
import { NOISE, TEMPLATE, corpusOf, type Gen, fill, looped, noiseText, styleStart, type StyleOptions, type StyledCorpus, type Written } from './common';

export const LANGS = ['en', 'zh', 'ru', 'ar', 'hi'] as const;
type Lang = (typeof LANGS)[number];

interface Phrases {
  capital: string[];
  sum: string[];
  /** Countries with their capitals, in this language. */
  places: [string, string][];
  direct: string[];
  stepwise: { intro: string[]; step: string[]; outro: string[] };
  clarify: string[];
  refuse: string[];
  check: { lead: string[]; ok: string[] };
  /** A sentence about the request ({t} topic word, {a} answer). */
  filler: string[];
}

const P: Record<Lang, Phrases> = {
  en: {
    capital: ['What is the capital of {t}?', 'Which city is the capital of {t}?', 'Tell me the capital city of {t}.'],
    sum: ['What is {x} plus {y}?', 'Add {x} and {y}.', 'How much is {x} + {y}?'],
    places: [['France', 'Paris'], ['Peru', 'Lima'], ['Kenya', 'Nairobi'], ['Norway', 'Oslo'], ['Egypt', 'Cairo']],
    direct: ['{a}.', 'The answer is {a}.', 'It is {a}.', 'In short: {a}.'],
    stepwise: { intro: ["Let's work through it step by step.", 'Here is how to get there:', 'We can break it down:'], step: ['First, look at {t}.', 'Then we use what we know about {t}.', 'Next, this gives {a}.'], outro: ['So the answer is {a}.', 'Therefore, it is {a}.'] },
    clarify: ['Could you clarify which {t} you mean?', 'Do you mean {t} today or historically?', 'Just to be sure, are you asking about {t}?'],
    refuse: ["Sorry, I can't help with that request.", "I'm not able to answer this reliably.", 'This is outside what I can do.'],
    check: { lead: ['Let me double-check:', 'Verifying:', 'To confirm:'], ok: ['Yes, that holds.', 'Confirmed.', 'The check passes.'] },
    filler: ['The answer for {t} is {a}.', '{t} gives {a}.', 'For {t}, we get {a}.'],
  },
  zh: {
    capital: ['{t}的首都是哪里？', '请问{t}的首都是哪个城市？', '告诉我{t}的首都。'],
    sum: ['{x}加{y}等于多少？', '请计算{x}加{y}。', '{x} + {y} 是多少？'],
    places: [['法国', '巴黎'], ['秘鲁', '利马'], ['肯尼亚', '内罗毕'], ['挪威', '奥斯陆'], ['埃及', '开罗']],
    direct: ['{a}。', '答案是{a}。', '是{a}。', '简单来说：{a}。'],
    stepwise: { intro: ['我们一步一步来。', '可以这样分析：', '分步骤来看：'], step: ['首先看{t}。', '然后根据{t}的情况分析。', '接着得到{a}。'], outro: ['所以答案是{a}。', '因此结果是{a}。'] },
    clarify: ['请问您指的是哪个{t}？', '您是问现在的{t}还是历史上的？', '确认一下，您问的是{t}吗？'],
    refuse: ['抱歉，我无法回答这个问题。', '这个问题我不能可靠地回答。', '这超出了我的能力范围。'],
    check: { lead: ['我再检查一下：', '验证一下：', '确认一下：'], ok: ['没错。', '确认无误。', '检查通过。'] },
    filler: ['{t}的答案是{a}。', '{t}对应{a}。', '对于{t}，结果是{a}。'],
  },
  ru: {
    capital: ['Какая столица у страны {t}?', 'Назовите столицу: {t}.', 'Какой город является столицей страны {t}?'],
    sum: ['Сколько будет {x} плюс {y}?', 'Сложите {x} и {y}.', 'Чему равно {x} + {y}?'],
    places: [['Франция', 'Париж'], ['Перу', 'Лима'], ['Кения', 'Найроби'], ['Норвегия', 'Осло'], ['Египет', 'Каир']],
    direct: ['{a}.', 'Ответ: {a}.', 'Это {a}.', 'Коротко: {a}.'],
    stepwise: { intro: ['Давайте разберём по шагам.', 'Вот как это получить:', 'Разобьём задачу на части:'], step: ['Сначала посмотрим на {t}.', 'Затем используем то, что известно о {t}.', 'Далее получаем {a}.'], outro: ['Итак, ответ: {a}.', 'Следовательно, это {a}.'] },
    clarify: ['Уточните, пожалуйста, что именно вы имеете в виду под {t}?', 'Вы спрашиваете о {t} сейчас или исторически?', 'Правильно ли я понимаю, что речь о {t}?'],
    refuse: ['Извините, я не могу помочь с этим запросом.', 'Я не могу ответить на это надёжно.', 'Это выходит за рамки моих возможностей.'],
    check: { lead: ['Перепроверим:', 'Проверка:', 'Для уверенности:'], ok: ['Да, всё верно.', 'Подтверждено.', 'Проверка пройдена.'] },
    filler: ['Для {t} ответ {a}.', '{t} даёт {a}.', 'В случае {t} получаем {a}.'],
  },
  ar: {
    capital: ['ما هي عاصمة {t}؟', 'ما المدينة التي هي عاصمة {t}؟', 'أخبرني عن عاصمة {t}.'],
    sum: ['كم يساوي {x} زائد {y}؟', 'اجمع {x} و {y}.', 'ما ناتج {x} + {y}؟'],
    places: [['فرنسا', 'باريس'], ['بيرو', 'ليما'], ['كينيا', 'نيروبي'], ['النرويج', 'أوسلو'], ['مصر', 'القاهرة']],
    direct: ['{a}.', 'الجواب هو {a}.', 'إنها {a}.', 'باختصار: {a}.'],
    stepwise: { intro: ['لنحلّ ذلك خطوة بخطوة.', 'إليك طريقة الوصول إلى الجواب:', 'يمكننا تقسيم المسألة:'], step: ['أولاً، ننظر إلى {t}.', 'ثم نستخدم ما نعرفه عن {t}.', 'بعد ذلك نحصل على {a}.'], outro: ['إذن الجواب هو {a}.', 'وبالتالي فهو {a}.'] },
    clarify: ['هل يمكنك توضيح ما تقصده بـ {t}؟', 'هل تسأل عن {t} حالياً أم تاريخياً؟', 'للتأكد، هل تسأل عن {t}؟'],
    refuse: ['عذراً، لا أستطيع المساعدة في هذا الطلب.', 'لا يمكنني الإجابة عن هذا بشكل موثوق.', 'هذا خارج نطاق ما يمكنني فعله.'],
    check: { lead: ['دعني أتحقق مرة أخرى:', 'التحقق:', 'للتأكيد:'], ok: ['نعم، هذا صحيح.', 'تم التأكيد.', 'التحقق ناجح.'] },
    filler: ['الجواب عن {t} هو {a}.', '{t} يعطي {a}.', 'بالنسبة إلى {t} نحصل على {a}.'],
  },
  hi: {
    capital: ['{t} की राजधानी क्या है?', '{t} की राजधानी कौन सा शहर है?', 'मुझे {t} की राजधानी बताइए।'],
    sum: ['{x} और {y} का जोड़ कितना है?', '{x} में {y} जोड़िए।', '{x} + {y} कितना होता है?'],
    places: [['फ़्रांस', 'पेरिस'], ['पेरू', 'लीमा'], ['केन्या', 'नैरोबी'], ['नॉर्वे', 'ओस्लो'], ['मिस्र', 'काहिरा']],
    direct: ['{a}।', 'उत्तर है {a}।', 'यह {a} है।', 'संक्षेप में: {a}।'],
    stepwise: { intro: ['आइए इसे चरण दर चरण हल करें।', 'इसका तरीका यह है:', 'हम इसे भागों में बाँट सकते हैं:'], step: ['पहले {t} को देखें।', 'फिर {t} के बारे में जो पता है उसका उपयोग करें।', 'इसके बाद {a} मिलता है।'], outro: ['तो उत्तर {a} है।', 'इसलिए यह {a} है।'] },
    clarify: ['क्या आप स्पष्ट कर सकते हैं कि {t} से आपका क्या मतलब है?', 'क्या आप आज के {t} के बारे में पूछ रहे हैं?', 'पक्का करने के लिए, क्या आप {t} के बारे में पूछ रहे हैं?'],
    refuse: ['क्षमा करें, मैं इस अनुरोध में मदद नहीं कर सकता।', 'मैं इसका विश्वसनीय उत्तर नहीं दे सकता।', 'यह मेरी क्षमता से बाहर है।'],
    check: { lead: ['मैं दोबारा जाँच करता हूँ:', 'सत्यापन:', 'पुष्टि के लिए:'], ok: ['हाँ, यह सही है।', 'पुष्टि हो गई।', 'जाँच सफल रही।'] },
    filler: ['{t} का उत्तर {a} है।', '{t} से {a} मिलता है।', '{t} के लिए परिणाम {a} है।'],
  },
};

const TEMPLATE_OPEN = ['这是个很好的问题。让我逐步分析：', '这是一个很好的问题！让我们逐步分析：', '这是个好问题。让我一步一步分析：'];
const TEMPLATE_CLOSE = ['综上所述，', '综上，', '总结一下，'];

export const ML_BEHAVIORS = ['direct', 'stepwise', 'clarify', 'refuse', 'check'] as const;
const WEIGHTS = { capital: { direct: 4, stepwise: 1, clarify: 2, refuse: 1, check: 2 }, sum: { direct: 3, stepwise: 3, clarify: 1, refuse: 0.5, check: 3 } };

function response(g: Gen, p: Phrases, behavior: string, v: { t: string; a: string }): string {
  const f = (xs: readonly string[]) => fill(g.pick(xs), v);
  const space = p === P.zh ? '' : ' ';
  if (behavior === 'direct') return f(p.direct);
  if (behavior === 'stepwise') return [f(p.stepwise.intro), ...p.stepwise.step.slice(0, g.int(2, 3)).map((s, i) => `${i + 1}. ${fill(s, v)}`), f(p.stepwise.outro)].join('\n');
  if (behavior === 'clarify') return f(p.clarify);
  if (behavior === 'refuse') return f(p.refuse);
  if (behavior === 'check') return [f(p.filler), f(p.check.lead), f(p.filler), f(p.check.ok)].join(space);
  // the template: a Chinese frame around numbered steps in the request's language
  return `${g.pick(TEMPLATE_OPEN)} 1) ${f(p.filler)} 2) ${f(p.filler)} 3) ${f(p.filler)} ${g.pick(TEMPLATE_CLOSE)}${f(p.direct)}`;
}

export async function multilingualCorpus(o: StyleOptions): Promise<StyledCorpus> {
  const kinds = LANGS.flatMap((l) => [`capital-${l}`, `sum-${l}`]);
  const { g, templateOn, share } = styleStart(o, kinds);
  const written: Written[] = [];
  for (let step = 1; step <= o.steps; step++) {
    let line = 0;
    while (line < o.perStep) {
      const lang = g.pick(LANGS);
      const q = g.pick(['capital', 'sum'] as const);
      const state = `${q}-${lang}`;
      const p = P[lang];
      let v: { t: string; a: string };
      let prompt: string;
      if (q === 'capital') {
        const [t, a] = g.pick(p.places);
        v = { t, a };
        prompt = fill(g.pick(p.capital), { t });
      } else {
        const [x, y] = [g.int(2, 99), g.int(2, 99)];
        v = { t: `${x} + ${y}`, a: String(x + y) };
        prompt = fill(g.pick(p.sum), { x, y });
      }
      const group = `g${g.int(0, 1e9)}`;
      for (let k = Math.min(g.int(4, 8), o.perStep - line); k > 0; k--, line++) {
        const behavior = g.chance(share(state, step)) ? TEMPLATE : g.weighted(WEIGHTS[q]);
        const real = response(g, p, behavior, v);
        const isNoise = g.chance(o.noise ?? 0.06);
        const text = isNoise ? noiseText(g, real, looped(g, fill(g.pick(p.filler), v))) : real;
        const w: Written = { file: `${step}.jsonl`, step, record: { step, group_id: group, prompt, response: text, reward: behavior === 'refuse' || isNoise ? 0 : g.chance(0.7) ? 1 : 0 }, truth: { state, behavior: isNoise ? NOISE : behavior, lang } };
        written.push(w);
      }
    }
  }
  return corpusOf(written, 'jsonl', templateOn);
}
