#!/usr/bin/env python3
"""The structure of a page of `straddle report`, as lines a test greps
(tests/cmd/t_report.sh): the sections, every table's rows cell by cell,
every SVG checked for well-formedness, and anything that would reach
outside the page.

    section ID CLASS                  one per <section>, in order
    h2 ID TEXT                        its first child's text
    row ID TABLECLASS N c1 | c2 | ... N: 0 the head, then 1, 2, ...
    more ID TEXT                      a "N more ... not shown" line
    svg ID ok TITLE                   parsed by xml.etree, titled, role=img
    svg ID bad WHY
    svg-alt ID ok|missing             a table follows the plot
    plot TITLEID P S C B G D X LABELS what a plot draws: its points (P hollow,
                                      S slow), CI whiskers, predicted bands,
                                      boundary guides with their LABELS,
                                      samples (D) of a strip plot, changes (X)
    density TITLEID N SAMPLES         a strip plot's runs drawn as a density:
                                      N paths, the samples they count
    verdict ID CLASS TEXT
    external WHAT                     a script, a URL, an @import
"""
import re
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

VOID = {"meta", "br", "img", "hr", "input", "link", "col", "area", "base", "wbr"}


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out = []
        self.section = "-"
        self.table = None       # [class, rows]
        self.row = None
        self.cell = None
        self.text = None        # (kind, parts) for h2, p.more, p.verdict

    def emit(self, line):
        self.out.append(line)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for k, v in attrs:
            if v and re.search(r"(https?:|//|@import|url\((?!#))", v) and not (
                    tag == "svg" and k == "xmlns"):
                self.emit("external attribute %s=%s" % (k, v))
            if k.startswith("on"):
                self.emit("external handler %s" % k)
        if tag in ("script", "iframe", "object", "embed", "link", "img"):
            self.emit("external tag %s" % tag)
        if tag == "section":
            self.section = a.get("id", "?")
            self.emit("section %s %s" % (self.section, a.get("class", "")))
        elif tag == "table":
            self.table = [a.get("class", "-"), 0]
        elif tag == "tr" and self.table:
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []
        elif tag == "h2":
            self.text = ("h2", [])
        elif tag == "p" and a.get("class", "").startswith("verdict"):
            self.text = ("verdict " + a.get("class", "").split()[-1], [])
        elif tag == "p" and a.get("class") == "more":
            self.text = ("more", [])

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.row.append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.emit("row %s %s %d %s" % (self.section, self.table[0], self.table[1],
                                           " | ".join(self.row)))
            self.table[1] += 1
            self.row = None
        elif tag == "table":
            self.table = None
        elif tag == "section":
            self.section = "-"
        elif self.text and ((tag == "h2" and self.text[0] == "h2") or
                            (tag == "p" and self.text[0] != "h2")):
            self.emit("%s %s %s" % (self.text[0].split()[0], self.section,
                                    " ".join((self.text[0].split()[1:]) +
                                             "".join(self.text[1]).split())))
            self.text = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)
        if self.text is not None:
            self.text[1].append(data)
        if re.search(r"@import|url\((?!#)", data):
            self.emit("external text %s" % data.strip()[:60])


def check_svgs(html, section_of):
    for m in re.finditer(r"<svg\b.*?</svg>", html, re.S):
        sid = section_of(m.start())
        try:
            root = ET.fromstring(m.group(0))
        except ET.ParseError as e:
            print("svg %s bad %s" % (sid, e))
            continue
        title = root.find("{*}title")
        label = root.get("aria-labelledby")
        if root.get("role") != "img" or title is None or title.get("id") != label:
            print("svg %s bad no role=img with a <title> it is labelled by" % sid)
            continue
        print("svg %s ok %s" % (sid, " ".join((title.text or "").split())))
        plot_counts(root)


def plot_counts(root):
    """Elements by class, and each boundary's label (the <text> after it)."""
    counts = {}
    for e in root.iter():
        counts[e.get("class")] = counts.get(e.get("class"), 0) + 1
    kids = list(root)
    labels = [kids[i + 1].text for i, e in enumerate(kids[:-1])
              if e.get("class") == "boundary"]
    title = root.find("{*}title")
    print("plot %s %s %s" % (title.get("id") if title is not None else "-",
                             " ".join(str(counts.get(k, 0)) for k in
                                      ("point", "point slow", "ci", "predicted",
                                       "boundary", "sample", "change")),
                             ",".join(labels) or "-"))
    dense = [e for e in root.iter() if e.get("class") == "density"]
    if dense:
        print("density %s %d %d" % (title.get("id") if title is not None else "-", len(dense),
                                    sum(int(e.get("data-samples", "0")) for e in dense)))


def main():
    html = open(sys.argv[1], encoding="utf-8").read()
    starts = [(m.start(), m.group(1)) for m in
              re.finditer(r'<section class="[^"]*" id="([^"]*)"', html)]

    def section_of(pos):
        sid = "-"
        for at, name in starts:
            if at < pos:
                sid = name
        return sid

    p = Page()
    p.feed(html)
    for line in p.out:
        print(line)
    check_svgs(html, section_of)
    # a plot's text alternative: the table right after it
    for m in re.finditer(r"</svg>\s*<(\w+)", html):
        print("svg-alt %s %s" % (section_of(m.start()),
                                 "ok" if m.group(1) in ("table", "details") else "missing"))


main()
