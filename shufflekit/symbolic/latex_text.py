r"""Plain text with inline formulas, turned into LaTeX a paper can paste.

Titles, assumptions and step descriptions of a :class:`~shufflekit.symbolic.derivation.Derivation`
are written as plain text with ASCII formulas (``0 < gamma < 1``, ``chi_lo -> oo``,
``E||x-hat - x||^2``).  :func:`text_to_latex` keeps the English words as (escaped) text and sets
every formula in math mode: ``<`` and ``>`` become relations (in text mode the default font
prints them as inverted punctuation), ``||x||`` a norm, ``eps0`` :math:`\varepsilon_0`, ``oo``
:math:`\infty`, ``sqrt(n)`` :math:`\sqrt{n}`, ``chi_lo`` :math:`\chi_{lo}`.
:func:`escape_text` is the plain escaper for text that has no formulas (sources, ids).
"""

from __future__ import annotations

import re

#: names written in the plain text -> their LaTeX
NAMES = {
    "alpha": r"\alpha",
    "beta": r"\beta",
    "gamma": r"\gamma",
    "delta": r"\delta",
    "eps": r"\varepsilon",
    "epsilon": r"\varepsilon",
    "eps0": r"\varepsilon_0",
    "eta": r"\eta",
    "theta": r"\theta",
    "lambda": r"\lambda",
    "mu": r"\mu",
    "pi": r"\pi",
    "sigma": r"\sigma",
    "sigma0": r"\sigma_0",
    "tau": r"\tau",
    "phi": r"\phi",
    "Phi": r"\Phi",
    "chi": r"\chi",
    "omega": r"\omega",
    "Sigma": r"\Sigma",
    "Delta": r"\Delta",
    "perp": r"\perp",
    "oo": r"\infty",
    "l": r"\ell",
    "W0": "W_0",
    "W1": "W_1",
    "Var": r"\mathrm{Var}",
    "Cov": r"\mathrm{Cov}",
    "Err": r"\mathsf{Err}",
    "GM": r"\mathsf{GM}",
    "JSD": r"\mathrm{JSD}",
    "exp": r"\exp",
    "log": r"\log",
    "erfc": r"\operatorname{erfc}",
    "dchi": r"d\chi",
    "dtau": r"d\tau",
    "dr": "dr",
    "x-hat": r"\hat{x}",
    "Phi-bar": r"\bar{\Phi}",
}
#: words that stay text even though they are short or capitalised like a symbol
WORDS = {
    "HCR",
    "BMG",
    "RR",
    "PrivUnit",
    "Prop",
    "Thm",
    "Lemma",
    "App",
    "Sec",
    "eq",
    "eqs",
    "Step",
    "Conclusion",
    "Taylor",
    "Mills",
    "Fisher",
    "GDP",
}
RELATIONS = {
    "->": r"\to",
    "<=": r"\le",
    ">=": r"\ge",
    "!=": r"\ne",
    "<": "<",
    ">": ">",
    "=": "=",
    "||": r"\|",
    "|": r"\mid",
    "*": "^{*}",
}

TOKEN = re.compile(
    r"""
    (?P<sqrt>sqrt\((?P<sqarg>[^()]*(?:\([^()]*\)[^()]*)*)\))
  | (?P<ident>[A-Za-z][A-Za-z0-9]*(?:-(?:hat|bar))?
        (?:_(?:\{[^{}]*\}|[A-Za-z0-9]+))?
        (?:\^(?:\{[^{}]*\}|\([^()]*\)|[-+]?[A-Za-z0-9]+|[-+]))?)
  | (?P<rel>->|<=|>=|!=|\|\||[<>=|*])
  | (?P<pow>\^(?:\{[^{}]*\}|\([^()]*\)|[-+]?[A-Za-z0-9]+))
  | (?P<num>\d+(?:\.\d+)?)
  | (?P<op>[-+/(),\[\]])
  | (?P<space>\s+)
  | (?P<other>.)
""",
    re.VERBOSE,
)

HYPHENATED = re.compile(r"[A-Za-z]{2,}(?:-[A-Za-z]{2,})+|[A-Za-z]-th\b")
SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
}


def escape_text(text: str) -> str:
    """``text`` as LaTeX text: the ten special characters and ``< > |`` escaped."""
    return "".join(SPECIAL.get(ch, ch) for ch in text)


def name_latex(word: str) -> str:
    """LaTeX of one identifier ``base[_sub][^pow]`` (``chi_lo^2`` -> ``\\chi_{lo}^{2}``)."""
    m = re.fullmatch(
        r"([A-Za-z][A-Za-z0-9]*(?:-(?:hat|bar))?)(?:_(\{[^{}]*\}|[A-Za-z0-9]+))?"
        r"(?:\^(\{[^{}]*\}|\([^()]*\)|[-+]?[A-Za-z0-9]+|[-+]))?",
        word,
    )
    if m is None:
        return escape_text(word)
    base, sub, power = m.groups()
    if base in NAMES:
        out = NAMES[base]
    elif re.fullmatch(r"[A-Za-z]\d+", base):
        out = f"{base[0]}_{{{base[1:]}}}"
    elif len(base) > 1:
        out = rf"\mathrm{{{base}}}"
    else:
        out = base
    if sub is not None:
        inner = sub[1:-1] if sub.startswith("{") else sub
        if inner in NAMES or len(inner) == 1 or inner.isdigit() or sub.startswith("{"):
            out += "_{" + formula(inner) + "}"
        else:
            out += r"_{\mathrm{" + inner + "}}"
    if power is not None:
        out += "^{" + formula(power.strip("{}()") if power[0] in "{(" else power) + "}"
    return out


def formula(text: str) -> str:
    """LaTeX (math mode) of an ASCII formula."""
    out = []
    for m in TOKEN.finditer(text):
        kind = m.lastgroup if m.lastgroup != "sqarg" else "sqrt"
        tok = m.group(0)
        if m.group("sqrt") is not None:
            out.append(r"\sqrt{" + formula(m.group("sqarg")) + "}")
        elif kind == "ident":
            out.append(name_latex(tok) + " ")
        elif kind == "rel":
            out.append(f" {RELATIONS[tok]} ")
        elif kind == "pow":
            body = tok[1:]
            out.append("^{" + formula(body.strip("{}()") if body[0] in "{(" else body) + "}")
        elif kind == "space":
            continue
        else:
            out.append(escape_text(tok) if kind == "other" else tok)
    return re.sub(r"\s+", " ", "".join(out)).strip()


def classify(tok: str, kind: str, nxt: str) -> str:
    """``M`` (math), ``W`` (word) or ``N`` (neutral: numbers, brackets, spaces, operators)."""
    if kind == "sqrt" or kind == "pow":
        return "M"
    if kind == "rel":
        return "M" if tok != "*" else "N"
    if kind != "ident":
        return "N"
    base = re.split(r"[_^]", tok)[0]
    if "_" in tok or "^" in tok or base in NAMES:
        return "M"
    if tok in WORDS:
        return "W"
    if len(tok) == 1 or re.fullmatch(r"[A-Za-z]\d+", tok):
        return "M"
    return "M" if nxt in ("(", "[") and tok[0].isupper() else "W"


def text_to_latex(text: str) -> str:
    """Plain text with ASCII formulas -> LaTeX text with each formula in ``$...$``."""
    pieces = []  # (class, raw text, kind)
    pos = 0
    while pos < len(text):
        hy = HYPHENATED.match(text, pos)
        if hy and hy.group(0) not in NAMES and (pos == 0 or not text[pos - 1].isalnum()):
            pieces.append(("W", hy.group(0), "word"))
            pos = hy.end()
            continue
        m = TOKEN.match(text, pos)
        kind = m.lastgroup if m.lastgroup != "sqarg" else "sqrt"
        if m.group("sqrt") is not None:
            kind = "sqrt"
        nxt = text[m.end() : m.end() + 1]
        tok = m.group(0)
        cls = classify(tok, kind, nxt)
        # an article 'a' before a word, a capital before '.digit' (Lemma A.1) stay text
        if (
            kind == "ident"
            and tok == "a"
            and re.match(r"\s+[a-z]{2,}", text[m.end() :])
            and not re.match(r"\s+(?:->|<|>|=)", text[m.end() :])
        ):
            cls = "W"
        if (
            kind == "ident"
            and len(tok) == 1
            and tok.isupper()
            and re.match(r"\.\d", nxt + text[m.end() + 1 : m.end() + 2])
        ):
            cls = "W"
        pieces.append((cls, tok, kind))
        pos = m.end()
    out, i = [], 0
    while i < len(pieces):
        if pieces[i][0] == "W":
            out.append(escape_text(pieces[i][1]))
            i += 1
            continue
        j = i
        while j < len(pieces) and pieces[j][0] != "W":
            j += 1
        run = pieces[i:j]
        if not any(c == "M" for c, _, _ in run):
            out.append(escape_text("".join(t for _, t, _ in run)))
        else:
            out.append(math_run("".join(t for _, t, _ in run)))
        i = j
    return "".join(out)


def math_run(raw: str) -> str:
    """Set ``raw`` in math mode, leaving surrounding spaces, trailing punctuation and unmatched
    brackets outside."""
    lead = raw[: len(raw) - len(raw.lstrip())]
    body = raw.strip()
    tail = ""
    while body and (
        body[-1] in ",.;:(["
        or (body[-1] == ")" and body.count(")") > body.count("("))
        or (body[-1] == "]" and body.count("]") > body.count("["))
    ):
        rest = body[:-1]
        tail = body[-1] + tail
        tail = rest[len(rest.rstrip()) :] + tail
        body = rest.rstrip()
    head = ""
    while body and (
        body[0] in ",.;:)]"
        or (body[0] == "(" and body.count("(") > body.count(")"))
        or (body[0] == "[" and body.count("[") > body.count("]"))
    ):
        rest = body[1:]
        head += body[0] + rest[: len(rest) - len(rest.lstrip())]
        body = rest.lstrip()
    trail_space = raw[len(raw.rstrip()) :]
    if not body:
        return escape_text(raw)
    return f"{lead}{escape_text(head)}${formula(body)}${escape_text(tail)}{trail_space}"
