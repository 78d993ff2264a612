// The language's ** in Python, bit for bit: JavaScript's ** (V8) is fdlibm's e_pow.c, which is not
// correctly rounded, so Python's math.pow (the C library's, more accurate) differs from it in the
// last bit on about 7 % of random operands (10 ** -5 is 0.000009999999999999999 in the lab). This is
// a Python transcription of fdlibm's algorithm: struct gives the two 32-bit words of a double, and
// every step is one IEEE operation as in C, so the results are the lab's: 0 of 250,000 random
// operands differed from Node when it was written, and the property test (python.test.ts) checks
// 22,000 random and special ones on every run. fdlibm's notice:
//   Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
//   Developed at SunSoft, a Sun Microsystems, Inc. business. Permission to use, copy, modify, and
//   distribute this software is freely granted, provided that this notice is preserved.

/** Python source of _pow(x, y) (JavaScript's x ** y on floats) and its word helpers; needs math, struct and _div. */
export const PY_POW = String.raw`# x ** y as JavaScript computes it: fdlibm's pow (e_pow.c), transcribed to Python.
# Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved. Developed at SunSoft, a Sun
# Microsystems, Inc. business. Permission to use, copy, modify, and distribute this software is
# freely granted, provided that this notice is preserved.
def _hi_lo(d):
    b = struct.unpack('<q', struct.pack('<d', d))[0]
    return b >> 32, b & 0xFFFFFFFF

def _from_words(hi, lo):
    return struct.unpack('<d', struct.pack('<Q', ((hi & 0xFFFFFFFF) << 32) | (lo & 0xFFFFFFFF)))[0]

def _low0(d):
    return _from_words(_hi_lo(d)[0], 0)

def _i32(v):
    v &= 0xFFFFFFFF
    return v - 0x100000000 if v & 0x80000000 else v

_BP = (1.0, 1.5)
_DP_H = (0.0, 5.84962487220764160156e-01)
_DP_L = (0.0, 1.35003920212974897128e-08)
_HUGE, _TINY = 1.0e300, 1.0e-300

def _pow(x, y):
    hx, lx = _hi_lo(x)
    hy, ly = _hi_lo(y)
    ix, iy = hx & 0x7FFFFFFF, hy & 0x7FFFFFFF
    if (iy | ly) == 0:
        return 1.0
    if x != x or y != y:
        return math.nan
    yisint = 0
    if hx < 0:
        if iy >= 0x43400000:
            yisint = 2
        elif iy >= 0x3FF00000:
            k = (iy >> 20) - 0x3FF
            if k > 20:
                j = ly >> (52 - k)
                if ((j << (52 - k)) & 0xFFFFFFFF) == ly:
                    yisint = 2 - (j & 1)
            elif ly == 0:
                j = iy >> (20 - k)
                if (j << (20 - k)) == iy:
                    yisint = 2 - (j & 1)
    if ly == 0:
        if iy == 0x7FF00000:
            if ((ix - 0x3FF00000) | lx) == 0:
                return math.nan
            if ix >= 0x3FF00000:
                return y if hy >= 0 else 0.0
            return -y if hy < 0 else 0.0
        if iy == 0x3FF00000:
            return _div(1.0, x) if hy < 0 else x
        if hy == 0x40000000:
            return x * x
        if hy == 0x3FE00000 and hx >= 0:
            return math.sqrt(x)
    ax = math.fabs(x)
    if lx == 0 and ix in (0x7FF00000, 0, 0x3FF00000):
        z = ax
        if hy < 0:
            z = _div(1.0, z)
        if hx < 0:
            if ((ix - 0x3FF00000) | yisint) == 0:
                z = math.nan
            elif yisint == 1:
                z = -z
        return z
    n = (hx >> 31) + 1
    if (n | yisint) == 0:
        return math.nan
    s = -1.0 if (n | (yisint - 1)) == 0 else 1.0
    if iy > 0x41E00000:
        if iy > 0x43F00000:
            if ix <= 0x3FEFFFFF:
                return _HUGE * _HUGE if hy < 0 else _TINY * _TINY
            if ix >= 0x3FF00000:
                return _HUGE * _HUGE if hy > 0 else _TINY * _TINY
        if ix < 0x3FEFFFFF:
            return s * _HUGE * _HUGE if hy < 0 else s * _TINY * _TINY
        if ix > 0x3FF00000:
            return s * _HUGE * _HUGE if hy > 0 else s * _TINY * _TINY
        t = ax - 1.0
        w = (t * t) * (0.5 - t * (0.3333333333333333333333 - t * 0.25))
        u = 1.44269502162933349609e+00 * t
        v = t * 1.92596299112661746887e-08 - w * 1.44269504088896338700e+00
        t1 = _low0(u + v)
        t2 = v - (t1 - u)
    else:
        t1, t2 = _log2_parts(ax, ix)
    y1 = _low0(y)
    p_l = (y - y1) * t1 + y * t2
    p_h = y1 * t1
    z = p_l + p_h
    j, i = _hi_lo(z)
    if j >= 0x40900000:
        if ((j - 0x40900000) | i) != 0 or p_l + 8.0085662595372944372e-17 > z - p_h:
            return s * _HUGE * _HUGE
    elif (j & 0x7FFFFFFF) >= 0x4090CC00:
        if (((j & 0xFFFFFFFF) - 0xC090CC00) | i) != 0 or p_l <= z - p_h:
            return s * _TINY * _TINY
    return s * _exp2_parts(j, p_l, p_h)

def _log2_parts(ax, ix):
    n = 0
    if ix < 0x00100000:
        ax *= 9007199254740992.0
        n -= 53
        ix = _hi_lo(ax)[0]
    n += (ix >> 20) - 0x3FF
    j = ix & 0x000FFFFF
    ix = j | 0x3FF00000
    if j <= 0x3988E:
        k = 0
    elif j < 0xBB67A:
        k = 1
    else:
        k = 0
        n += 1
        ix -= 0x00100000
    ax = _from_words(ix, _hi_lo(ax)[1])
    u = ax - _BP[k]
    v = 1.0 / (ax + _BP[k])
    ss = u * v
    s_h = _low0(ss)
    t_h = _from_words(((ix >> 1) | 0x20000000) + 0x00080000 + (k << 18), 0)
    t_l = ax - (t_h - _BP[k])
    s_l = v * ((u - s_h * t_h) - s_h * t_l)
    s2 = ss * ss
    r = s2 * s2 * (5.99999999999994648725e-01 + s2 * (4.28571428578550184252e-01 + s2 * (3.33333329818377432918e-01 + s2 * (2.72728123808534006489e-01 + s2 * (2.30660745775561754067e-01 + s2 * 2.06975017800338417784e-01)))))
    r += s_l * (s_h + ss)
    s2 = s_h * s_h
    t_h = _low0(3.0 + s2 + r)
    t_l = r - ((t_h - 3.0) - s2)
    u = s_h * t_h
    v = s_l * t_h + t_l * ss
    p_h = _low0(u + v)
    p_l = v - (p_h - u)
    z_h = 9.61796700954437255859e-01 * p_h
    z_l = -7.02846165095275826516e-09 * p_h + p_l * 9.61796693925975554329e-01 + _DP_L[k]
    t = float(n)
    t1 = _low0(((z_h + z_l) + _DP_H[k]) + t)
    t2 = z_l - (((t1 - t) - _DP_H[k]) - z_h)
    return t1, t2

def _exp2_parts(j, p_l, p_h):
    i = j & 0x7FFFFFFF
    k = (i >> 20) - 0x3FF
    n = 0
    if i > 0x3FE00000:
        n = j + (0x00100000 >> (k + 1))
        k = ((n & 0x7FFFFFFF) >> 20) - 0x3FF
        t = _from_words(n & ~(0x000FFFFF >> k), 0)
        n = ((n & 0x000FFFFF) | 0x00100000) >> (20 - k)
        if j < 0:
            n = -n
        p_h -= t
    t = _low0(p_l + p_h)
    u = t * 6.93147182464599609375e-01
    v = (p_l - (t - p_h)) * 6.93147180559945286227e-01 + t * -1.90465429995776804525e-09
    z = u + v
    w = v - (z - u)
    t = z * z
    t1 = z - t * (1.66666666666666019037e-01 + t * (-2.77777777770155933842e-03 + t * (6.61375632143793436117e-05 + t * (-1.65339022054652515390e-06 + t * 4.13813679705723846039e-08))))
    r = _div(z * t1, (t1 - 2.0) - (w + z * w))
    z = 1.0 - (r - z)
    hz = _hi_lo(z)[0] + _i32(n << 20)
    if (hz >> 20) <= 0:
        return math.ldexp(z, n)
    return _from_words(hz, _hi_lo(z)[1])
`;
