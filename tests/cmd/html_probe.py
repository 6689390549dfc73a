#!/usr/bin/env python3
"""What the report tests read out of a page of `straddle report`, with the
standard library only:

  html_probe.py sections PAGE
      one line per <section>: its class and id, and "h2" when its first
      element is an <h2>
  html_probe.py svgs PAGE
      one line per <svg>: its title's id, then the counts of its elements
      of class point, "point slow", ci, predicted, boundary, sample, and
      the labels of its boundaries; exit 1 when an SVG is not well-formed
      XML, has no role="img" or <title>, or is not followed by its table
  html_probe.py row PAGE SECTION CLASS N FIRST
      the cells, joined by "|", of the rows whose first cell is FIRST in
      the N-th (0-based) <table class=CLASS> of the section with id SECTION
  html_probe.py column PAGE SECTION CLASS N COL
      every cell of column COL (0-based) of that table, one a line
  html_probe.py external PAGE
      every reference out of the page (a script, a URL, an href not
      starting with #), one a line
"""
import re
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser


class Tables(HTMLParser):
    """Tables by section id and class: rows of cell texts."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.section = None
        self.tables = {}        # (section, class) -> [rows]
        self.table = None
        self.row = None
        self.cell = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self.section = a.get("id")
        elif tag == "table":
            self.table = []
            self.tables.setdefault((self.section, a.get("class")), []).append(self.table)
        elif tag == "tr" and self.table is not None:
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.row.append("".join(self.cell).strip())
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.table.append(self.row)
            self.row = None
        elif tag == "table":
            self.table = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def table(page, section, cls, n):
    p = Tables()
    p.feed(page)
    return p.tables[(section, cls)][int(n)]


def sections(page):
    for m in re.finditer(r'<section class="([^"]*)" id="([^"]*)">\s*(<h2>)?', page):
        print(m.group(1), m.group(2), "h2" if m.group(3) else "-")


def svgs(page):
    bad = 0
    for m in re.finditer(r"<svg\b.*?</svg>\s*", page, re.S):
        try:
            root = ET.fromstring(m.group(0).strip())
        except ET.ParseError as e:
            print("malformed:", e)
            bad = 1
            continue
        title = root.find("title")
        after = page[m.end():m.end() + 40]
        if root.get("role") != "img" or title is None or not title.text:
            print("no role or title:", m.group(0)[:80])
            bad = 1
        if not (after.startswith("<table") or after.startswith("<details")):
            print("not followed by its table:", title.get("id"), after[:20])
            bad = 1
        counts = {}
        labels = []
        for e in root.iter():
            c = e.get("class")
            counts[c] = counts.get(c, 0) + 1
        # the label of a boundary is the <text> right after its line
        kids = list(root)
        for i, e in enumerate(kids):
            if e.get("class") == "boundary" and i + 1 < len(kids):
                labels.append(kids[i + 1].text)
        print(title.get("id") if title is not None else "?",
              *(counts.get(k, 0) for k in ("point", "point slow", "ci", "predicted",
                                          "boundary", "sample")),
              ",".join(labels) or "-")
    sys.exit(bad)


def external(page):
    for m in re.finditer(r"<script|(?:href|src)=\"(?!#)[^\"]*\"|url\(|https?:|//[a-z]", page):
        print(m.group(0))


def main():
    cmd, page = sys.argv[1], open(sys.argv[2], encoding="utf-8").read()
    if cmd == "sections":
        sections(page)
    elif cmd == "svgs":
        svgs(page)
    elif cmd == "row":
        for r in table(page, *sys.argv[3:6]):
            if r and r[0] == sys.argv[6]:
                print("|".join(r))
    elif cmd == "column":
        for r in table(page, *sys.argv[3:6])[1:]:
            print(r[int(sys.argv[6])])
    elif cmd == "external":
        external(page)


main()
