// The Python runtime every exported gate carries: the rule language's number semantics (JavaScript
// doubles) where Python's operators differ, the field reads with the lab's type checks and messages,
// and JavaScript's coercions where the lab's decision reads a field without checking it (gate.ts
// outcomeOf). Each helper is named after the rule it keeps; python.test.ts runs them against the
// lab on generated gates and records.
//   x / y     Python raises on y == 0; JavaScript gives ±Infinity (sign of x times sign of y) or NaN
//   x % y     Python's is floored (-7 % 3 == 2); JavaScript's is truncated like C's fmod (-1), NaN
//             for y == 0 or x infinite, x for y infinite; a zero result keeps x's sign (-4 % 2 is -0)
//   min, max  NaN anywhere gives NaN; -0 is below +0; an empty list gives Infinity / -Infinity
//   sum, mean left to right from +0 (Python's sum() of floats is compensated from 3.12 on); mean([]) is NaN
//   in, count == equality: NaN is in no list (Python's `in` finds the same NaN object by identity)
//   numbers   every number is a float (a record's ints are converted; an int too large for a float is
//             ±Infinity as JSON.parse gives), so ** never makes big integers and / never floors

/** Python source of the number helpers (_div, _mod, _min, _max, _sum, _mean, _in, _count, _len). */
export const PY_NUMBERS = String.raw`_NAN = float("nan")
_INF = float("inf")


def _div(x, y):
    # JavaScript's x / y: by zero, ±Infinity or NaN instead of ZeroDivisionError
    if y == 0.0:
        if x == 0.0 or x != x:
            return _NAN
        return math.copysign(_INF, x) * math.copysign(1.0, y)
    return x / y


def _mod(x, y):
    # JavaScript's x % y: truncated (the sign of x), not Python's floored %
    if x != x or y != y or y == 0.0 or math.isinf(x):
        return _NAN
    if math.isinf(y) or x == 0.0:
        return x
    return math.fmod(x, y)


def _min2(a, b):
    if a != a or b != b:
        return _NAN
    if a == b == 0.0:
        return a if math.copysign(1.0, a) < 0 else b
    return a if a < b else b


def _max2(a, b):
    if a != a or b != b:
        return _NAN
    if a == b == 0.0:
        return b if math.copysign(1.0, a) < 0 else a
    return a if a > b else b


def _min(xs):
    m = _INF
    for x in xs:
        m = _min2(m, x)
    return m


def _max(xs):
    m = -_INF
    for x in xs:
        m = _max2(m, x)
    return m


def _sum(xs):
    s = 0.0
    for x in xs:
        s = s + x
    return s


def _mean(xs):
    return _sum(xs) / len(xs) if len(xs) else _NAN


def _in(a, xs):
    for x in xs:
        if x == a:
            return True
    return False


def _count(xs, a):
    n = 0.0
    for x in xs:
        if x == a:
            n = n + 1.0
    return n


def _len(xs):
    return float(len(xs))
`;

/** Python source of the record reads: field checks with the lab's messages, and JavaScript's Number() where the decision reads unchecked. */
export const PY_RECORDS = String.raw`_MISSING = object()


class GateError(Exception):
    """A rule could not be evaluated on a sample: the lab's message, word for word."""


class _FieldError(Exception):
    def __init__(self, reason, pos):
        Exception.__init__(self, reason)
        self.reason = reason
        self.pos = pos


def _is_num(v):
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def _float(v):
    try:
        return float(v)
    except OverflowError:
        return _INF if v > 0 else -_INF


def _got(v):
    if v is None or v is _MISSING:
        return "missing"
    if isinstance(v, (list, tuple)):
        return "a list"
    if isinstance(v, bool):
        return "a boolean"
    if _is_num(v):
        return "a number"
    if isinstance(v, str):
        return "a string"
    return "a object"


def _f(r, name, kind, pos):
    # a field the condition reads, checked as the lab checks it (evaluate.ts fieldValue)
    v = r[name] if name in r else _MISSING
    if kind == "number" and _is_num(v):
        return _float(v)
    if kind == "boolean" and isinstance(v, bool):
        return v
    if kind == "string" and isinstance(v, str):
        return v
    if kind == "number[]" and isinstance(v, (list, tuple)) and all(_is_num(x) for x in v):
        return [_float(x) for x in v]
    if kind == "string[]" and isinstance(v, (list, tuple)) and all(isinstance(x, str) for x in v):
        return list(v)
    raise _FieldError('field "%s" is %s in this record, expected a %s' % (name, _got(v), kind), pos)


_NUMBER_TEXT = re.compile(r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|Infinity)")
_RADIX_TEXT = re.compile(r"0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+")


def _js_number(v, name):
    # JavaScript's Number(v) for a field the decision reads without a check (the lab's outcomeOf):
    # missing is NaN, null is 0, true is 1; a list or an object is refused rather than guessed
    if v is _MISSING:
        return _NAN
    if v is None:
        return 0.0
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    if _is_num(v):
        return _float(v)
    if isinstance(v, str):
        s = v.strip(" \t\n\r\x0b\x0c\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff")
        if s == "":
            return 0.0
        if _NUMBER_TEXT.fullmatch(s):
            return float(s.replace("Infinity", "inf"))
        if _RADIX_TEXT.fullmatch(s):
            return float(int(s, 0))
        return _NAN
    raise GateError('field "%s" is %s in this record: the lab would coerce it as JavaScript does, which this module does not mirror' % (name, _got(v)))


def _read(r, name):
    return _js_number(r[name] if name in r else _MISSING, name)
`;
