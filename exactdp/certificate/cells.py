"""Typed table cells of the document model: a number, a point label, a set of labels, a flag, a missing value, a
reference to a certificate -- each typeset as a reader writes it, never as a Python repr (:func:`cell` chooses).
Part of the one document model (:mod:`exactdp.certificate.sections`, docs/architecture.md#sec-document).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

from .render import label_text, plain, set_text
from .inline import inline_html, inline_latex, tex_escape

__all__ = [
    "CertRef",
    "Flag",
    "Label",
    "LabelSet",
    "Missing",
    "Text",
    "cell",
]


@dataclass(frozen=True)
class Text:
    """A cell of inline Markdown text (``$math$`` allowed).

    Parameters
    ----------
    text : str
        The cell's inline Markdown.

    Examples
    --------
    >>> Text("$x_1$ is **exact**").latex()
    '$x_1$ is \\\\textbf{exact}'
    """

    text: str

    def markdown(self) -> str:
        """Return the text as written (it is Markdown already).

        Returns
        -------
        str

        Examples
        --------
        >>> Text("$x_1$ is **exact**").markdown()
        '$x_1$ is **exact**'
        """
        return self.text

    def latex(self) -> str:
        """Return the text as LaTeX (see :func:`inline_latex`).

        Returns
        -------
        str

        Examples
        --------
        >>> Text("50% of $x_1$").latex()
        '50\\\\% of $x_1$'
        """
        return inline_latex(self.text)

    def plain_text(self) -> str:
        """Return the text as plain text (:func:`exactdp.certificate.render.plain`).

        Returns
        -------
        str

        Examples
        --------
        >>> Text("$x_1$ is **exact**").plain_text()
        'x_1 is exact'
        """
        return plain(self.text)

    def html(self) -> str:
        """Return the text as HTML (see :func:`inline_html`).

        Returns
        -------
        str

        Examples
        --------
        >>> Text("$x$ < **y**").html()
        '$x$ &lt; <strong>y</strong>'
        """
        return inline_html(self.text)


@dataclass(frozen=True)
class Label:
    """A point label: a product label ``"1,1,4"`` is the tuple ``(1,1,4)``.

    Parameters
    ----------
    label : object
        The label as the metric names the point (a string, or an int).

    Examples
    --------
    >>> Label("1,1,4").markdown(), Label(3).markdown()
    ('(1,1,4)', '3')
    """

    label: Any

    def markdown(self) -> str:
        """Return the label as a reader writes it (a product label as a tuple).

        Returns
        -------
        str

        Examples
        --------
        >>> Label("0,2").markdown()
        '(0,2)'
        """
        return label_text(self.label)

    def latex(self) -> str:
        """Return the label as LaTeX math.

        Returns
        -------
        str

        Examples
        --------
        >>> Label("x_1").latex()
        '$x\\\\_1$'
        """
        return "$" + tex_escape(label_text(self.label)) + "$"

    def plain_text(self) -> str:
        """Return the label as a reader writes it (as :meth:`markdown`).

        Returns
        -------
        str

        Examples
        --------
        >>> Label("0,2").plain_text()
        '(0,2)'
        """
        return self.markdown()

    def html(self) -> str:
        """Return the label as HTML text, escaped.

        Returns
        -------
        str

        Examples
        --------
        >>> Label("<a>").html()
        '&lt;a&gt;'
        """
        return html.escape(label_text(self.label), quote=False)


@dataclass(frozen=True)
class LabelSet:
    """A set of point labels, typeset as a set: ``{(0,0), (1,0)}``; the empty set is ``{}``.

    Parameters
    ----------
    labels : tuple
        The labels, in the order they are written.

    Examples
    --------
    >>> LabelSet(("0,0", "1,0")).markdown(), LabelSet(()).latex()
    ('{(0,0), (1,0)}', '$\\\\emptyset$')
    """

    labels: tuple

    def markdown(self) -> str:
        """Return the set as a reader writes it, in braces.

        Returns
        -------
        str

        Examples
        --------
        >>> LabelSet(("a", "b")).markdown()
        '{a, b}'
        """
        return set_text(self.labels)

    def latex(self) -> str:
        """Return the set as LaTeX math (``\\emptyset`` when empty).

        Returns
        -------
        str

        Examples
        --------
        >>> LabelSet(("0,0", "1,0")).latex()
        '$\\\\{(0,0), (1,0)\\\\}$'
        """
        if not self.labels:
            return r"$\emptyset$"
        return r"$\{" + ", ".join(tex_escape(label_text(x)) for x in self.labels) + r"\}$"

    def plain_text(self) -> str:
        """Return the set as a reader writes it (as :meth:`markdown`).

        Returns
        -------
        str

        Examples
        --------
        >>> LabelSet(("a",)).plain_text()
        '{a}'
        """
        return self.markdown()

    def html(self) -> str:
        """Return the set as HTML text, escaped.

        Returns
        -------
        str

        Examples
        --------
        >>> LabelSet(("0,0", "<b>")).html()
        '{(0,0), &lt;b&gt;}'
        """
        return html.escape(set_text(self.labels), quote=False)


@dataclass(frozen=True)
class Flag:
    """A yes/no answer (never ``True``/``False``).

    Parameters
    ----------
    value : bool
        The answer.

    Examples
    --------
    >>> Flag(True).markdown(), Flag(False).latex()
    ('yes', 'no')
    """

    value: bool

    def markdown(self) -> str:
        """Return ``yes`` or ``no``.

        Returns
        -------
        str

        Examples
        --------
        >>> Flag(False).markdown()
        'no'
        """
        return "yes" if self.value else "no"

    def latex(self) -> str:
        """Return ``yes`` or ``no`` (the same words in LaTeX).

        Returns
        -------
        str

        Examples
        --------
        >>> Flag(True).latex()
        'yes'
        """
        return self.markdown()

    def plain_text(self) -> str:
        """Return the same words as :meth:`markdown`.

        Returns
        -------
        str

        Examples
        --------
        >>> Flag(True).plain_text()
        'yes'
        """
        return self.markdown()

    def html(self) -> str:
        """Return the same words as :meth:`markdown` (nothing to escape).

        Returns
        -------
        str

        Examples
        --------
        >>> Flag(True).html()
        'yes'
        """
        return self.markdown()


@dataclass(frozen=True)
class Missing:
    """No value in this cell (``-``).

    Examples
    --------
    >>> Missing().markdown(), Missing().latex()
    ('-', '--')
    """

    def markdown(self) -> str:
        """Return a hyphen, Markdown's mark of an empty cell.

        Returns
        -------
        str

        Examples
        --------
        >>> Missing().markdown()
        '-'
        """
        return "-"

    def latex(self) -> str:
        """Return an en dash (``--`` in LaTeX).

        Returns
        -------
        str

        Examples
        --------
        >>> Missing().latex()
        '--'
        """
        return "--"

    def plain_text(self) -> str:
        """Return the same words as :meth:`markdown`.

        Returns
        -------
        str

        Examples
        --------
        >>> Missing().plain_text()
        '-'
        """
        return self.markdown()

    def html(self) -> str:
        """Return the same words as :meth:`markdown` (nothing to escape).

        Returns
        -------
        str

        Examples
        --------
        >>> Missing().html()
        '-'
        """
        return self.markdown()


@dataclass(frozen=True)
class CertRef:
    """A reference to one of the claim's certificates, by number.

    The number is 1-based, in the order the claim lists its certificates (``exactdp reproduce --recheck``
    re-checks each one).

    Parameters
    ----------
    number : int
        The certificate's position in the claim's list, from 1.

    Examples
    --------
    >>> CertRef(2).markdown()
    'certificate 2'
    """

    number: int

    def markdown(self) -> str:
        """Return ``certificate <number>``.

        Returns
        -------
        str

        Examples
        --------
        >>> CertRef(1).markdown()
        'certificate 1'
        """
        return f"certificate {self.number}"

    def latex(self) -> str:
        """Return ``certificate <number>`` (the same words in LaTeX).

        Returns
        -------
        str

        Examples
        --------
        >>> CertRef(3).latex()
        'certificate 3'
        """
        return self.markdown()

    def plain_text(self) -> str:
        """Return the same words as :meth:`markdown`.

        Returns
        -------
        str

        Examples
        --------
        >>> CertRef(2).plain_text()
        'certificate 2'
        """
        return self.markdown()

    def html(self) -> str:
        """Return the same words as :meth:`markdown` (nothing to escape).

        Returns
        -------
        str

        Examples
        --------
        >>> CertRef(2).html()
        'certificate 2'
        """
        return self.markdown()


def cell(value: Any) -> Text | Label | LabelSet | Flag | Missing | CertRef:
    """One table cell, typed.

    A bool is a :class:`Flag`, None is :class:`Missing`, a list, tuple or set of labels is a :class:`LabelSet`,
    a typed cell stays itself, anything else is :class:`Text` (``str``).

    Parameters
    ----------
    value : object
        The raw cell.

    Returns
    -------
    Text, Label, LabelSet, Flag, Missing or CertRef

    Examples
    --------
    >>> cell(True), cell(None), cell(["1,4"]), cell("1/2")
    (Flag(value=True), Missing(), LabelSet(labels=('1,4',)), Text(text='1/2'))
    """
    if isinstance(value, (Text, Label, LabelSet, Flag, Missing, CertRef)):
        return value
    if isinstance(value, bool):
        return Flag(value)
    if value is None:
        return Missing()
    if isinstance(value, (set, frozenset)):
        return LabelSet(tuple(sorted(value)))
    if isinstance(value, (list, tuple)):
        return LabelSet(tuple(value))
    return Text(str(value))
