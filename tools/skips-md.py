#!/usr/bin/env python3
"""skips-md.py -- print the skip tables of tests/mcapi/tp.c as markdown
(docs/mcapi.md, "One conformance suite, three transports", holds them
between <!-- skips begin --> and <!-- skips end -->; tools/lint.sh checks
that they are the same)."""
import re
import sys

src = open(sys.argv[1] if len(sys.argv) > 1 else "tests/mcapi/tp.c").read()
macros = {m.group(1): m.group(2) for m in re.finditer(r'#define (\w+)\s*(?:\\\n)?\s*((?:"[^"]*"\s*(?:\\\n\s*)?)+)', src)}


def text(x):
    x = macros.get(x.strip(), x)
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', x))


for table, label in (("dma_skips", "DMA transport"), ("xm_skips", "XMCAPI")):
    body = src[src.index("static const struct mt_skip %s[]" % table):]
    body = body[: body.index("{NULL, 0, NULL}}")]
    rows = re.findall(r'\{"(\w+)", (MT_BY_DESIGN|MT_NOT_YET),\s*((?:[A-Z_]+|(?:"(?:[^"\\]|\\.)*"\s*)+))\}', body)
    design = [r for r in rows if r[1] == "MT_BY_DESIGN"]
    todo = [r for r in rows if r[1] == "MT_NOT_YET"]
    print("**%s** (%d by design, %d not yet):\n" % (label, len(design), len(todo)))
    print("| case | kind | why |\n|---|---|---|")
    for r in design + todo:
        print("| `%s` | %s | %s |" % (r[0], "by design" if r[1] == "MT_BY_DESIGN" else "not yet", text(r[2])))
    print()
