"""Well-nested HTML, checked with the standard library's parser (the document model's HTML writer is tested
against it in tests/certificate/)."""

from html.parser import HTMLParser

_VOID = {"br", "hr", "img", "input", "meta", "link", "wbr", "col", "area", "base", "source", "track", "embed"}


class _Nesting(HTMLParser):
    """Every opened tag closed, in order (the stdlib parser reports tags; it does not check them)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in _VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if tag in _VOID:
            return
        if not self.open or self.open[-1] != tag:
            self.problems.append(f"</{tag}> closes {'<' + self.open[-1] + '>' if self.open else 'nothing'}")
            if tag in self.open:
                del self.open[len(self.open) - 1 - self.open[::-1].index(tag):]
        else:
            self.open.pop()


def html_problems(text: str) -> list[str]:
    p = _Nesting()
    p.feed(text)
    p.close()
    return p.problems + [f"<{t}> never closed" for t in p.open]
