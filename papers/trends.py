"""How topics and search terms rise and fall: each one's share of the papers of every year.

A share is the papers of a year with the topic (or matching the terms) over all the papers of
that year, so a year with more venues loaded does not look like a rise. The chart is an SVG
drawn here, every text escaped, with a title and description; pages show the same numbers in
a table beside it.
"""

import re
from dataclasses import dataclass, field

from django.db.models import Count, Q
from django.http import QueryDict
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from .compounds import is_stop_word
from .filtering import PaperFilterSet
from .models import Paper, PaperTopic, Topic
from .rendering import quoted
from .spelling import FEW_MATCHES, did_you_mean
from .text import fold_whitespace, typed_intent, typed_query
from .understanding import join_compounds

MAX_SERIES = 5
_WORDS = re.compile(r"\w+")
TERM_BOXES = 2  # the search-term boxes of the /trends/ form with no term chosen
_WIDTH, _HEIGHT = 640, 280
_LEFT, _RIGHT, _TOP, _BOTTOM = 78, 34, 16, 40


@dataclass
class Series:
    """One line of the chart: a topic or search terms, papers per year and shares."""

    label: str
    href: str
    counts: dict[int, int] = field(default_factory=dict)
    shares: dict[int, float] = field(default_factory=dict)


def per_year(papers) -> dict[int, int]:
    """{year: papers} of these papers (venues without a year left out; 1 query)."""
    rows = papers.order_by().values("venue__year").annotate(n=Count("pk"))
    return {row["venue__year"]: row["n"] for row in rows if row["venue__year"] is not None}


def topic_papers(topic):
    return Paper.objects.filter(pk__in=PaperTopic.objects.filter(topic=topic).values("paper_id"))


def topic_series(topic) -> Series:
    return Series(topic.name, topic.get_absolute_url(), per_year(topic_papers(topic)))


def term_series(text: str) -> Series:
    """The papers matching ``text`` per year, read as the search box reads it (a question by
    its subject, unless it is a paper's title: PaperFilterSet.searched), linked to its
    search."""
    filterset = PaperFilterSet({"q": text})
    searched = join_compounds(filterset.searched if filterset.is_valid() else text)[0]
    href = reverse("paper-list") + "?" + _encode_q(text)
    return Series(quoted(text), href, per_year(Paper.objects.matching(searched)))


def _encode_q(text: str) -> str:
    query = QueryDict(mutable=True)
    query["q"] = text
    return query.urlencode()


def compare(topic_slugs: list[str], terms: list[str]) -> tuple[list[Series], list[str]]:
    """The series asked for (topics first, then terms, at most MAX_SERIES) and notices about
    what was left out."""
    notices = []
    topic_slugs = list(dict.fromkeys(slug.strip() for slug in topic_slugs if slug.strip()))
    terms = list(dict.fromkeys(fold_whitespace(typed_intent(typed_query(t))) for t in terms))
    terms = [term[:200] for term in terms if term]
    if len(topic_slugs) + len(terms) > MAX_SERIES:
        kept = topic_slugs[:MAX_SERIES]
        kept_terms = terms[: MAX_SERIES - len(kept)]
        # Named: "the first five are" kept the topics and dropped a term asked before one of
        # them (an outside researcher).
        left = [*topic_slugs[len(kept) :], *terms[len(kept_terms) :]]
        notices.append(
            f"At most {MAX_SERIES} topics or terms are compared, topics first: "
            + ", ".join(map(quoted, left))
            + " left out."
        )
        topic_slugs, terms = kept, kept_terms
    found = {topic.slug: topic for topic in Topic.objects.filter(slug__in=topic_slugs)}
    missing = [slug for slug in topic_slugs if slug not in found]
    if missing:
        notices.append("No topic named " + ", ".join(f"“{slug}”" for slug in missing) + ".")
    series = [topic_series(found[slug]) for slug in topic_slugs if slug in found]
    term_lines = [term_series(term) for term in terms]
    notices += _respellings(terms, term_lines)
    notices += [notice for term in terms if (notice := _unsearched(term))]
    return series + term_lines, notices


def _unsearched(term: str) -> str | None:
    """Why ``term``'s line is empty where no search could fill it: no word, or stop words alone."""
    words = _WORDS.findall(term)
    if not words:
        return f"{quoted(term)} has no word to search for: its line is empty."
    if all(map(is_stop_word, words)):
        return (
            f"{quoted(term)} is only words no search reads (“the”, “of”, “a” …): its line is empty."
        )
    return None


def _respellings(terms: list[str], lines: list[Series]) -> list[str]:
    """A notice offering the respelling of each term that few papers say (as search offers
    it): "nueral" charted 0.0% each year without a word (an outside tester)."""
    notices = []
    for term, line in zip(terms, lines, strict=True):
        if sum(line.counts.values()) <= FEW_MATCHES and (
            respelled := did_you_mean(term, FEW_MATCHES)
        ):
            notices.append(f"Few papers say {quoted(term)}: did you mean {quoted(respelled)}?")
    return notices


def with_shares(series: list[Series], totals: dict[int, int]) -> list[int]:
    """Fill each series' shares from the year totals; the years, oldest first."""
    years = sorted(totals)
    for line in series:
        line.shares = {year: line.counts.get(year, 0) / totals[year] for year in years}
    return years


def venue_rows_with_totals(linked):
    """[{venue__slug, venue__name, venue__year, n, total}] per venue, newest first: ``n``
    papers among ``linked`` (a subquery of paper ids), ``total`` of all (1 query)."""
    return (
        Paper.objects.values("venue__slug", "venue__name", "venue__year")
        .annotate(n=Count("pk", filter=Q(pk__in=linked)), total=Count("pk"))
        .order_by("-venue__year", "venue__name")
    )


def year_totals(rows, key: str) -> dict[int, int]:
    """Sum ``key`` of per-venue rows by year (rows without a year left out)."""
    totals: dict[int, int] = {}
    for row in rows:
        if row["venue__year"] is not None:
            totals[row["venue__year"]] = totals.get(row["venue__year"], 0) + row[key]
    return totals


def topic_trend(topic, rows) -> dict:
    """A topic page's chart and table, from its per-venue rows (``venue_rows_with_totals``)."""
    trend = Series(topic.name, topic.get_absolute_url(), year_totals(rows, "n"))
    years = with_shares([trend], year_totals(rows, "total"))
    title = f"Share of papers on {topic.name} per year"
    return {
        "trend_chart": line_chart([trend], years, title),
        "trend": [trend],
        "trend_rows": table_rows([trend], years),
    }


def term_boxes(topic_slugs: list[str], terms: list[str]) -> list[str]:
    """The search-term boxes of the /trends/ form: one for each term the address holds (a
    shared one may hold five) and an empty one more while fewer than MAX_SERIES topics and
    terms are chosen (TERM_BOXES at least, room allowing). With two terms, the form had no box
    for a third; with five topics and terms, it had one that Compare then ignored (an
    outside tester)."""
    filled = [term for term in terms if term.strip()][:MAX_SERIES]
    room = MAX_SERIES - len(topic_slugs[:MAX_SERIES]) - len(filled)
    return filled + [""] * max(0, min(room, max(TERM_BOXES - len(filled), 1)))


def comparison(topic_slugs: list[str], terms: list[str]) -> dict:
    """The /trends/ page's chart, table and notices for these topics and terms."""
    series, notices = compare(topic_slugs, terms)
    years = with_shares(series, per_year(Paper.objects.all())) if series else []
    title = "Share of papers per year: " + ", ".join(line.label for line in series)
    return {
        "series": series,
        "trend_rows": table_rows(series, years),
        "notices": notices,
        "chart": line_chart(series, years, title),
    }


def table_rows(series: list[Series], years: list[int]):
    """[(year, [(papers, share as text) per series])]: the chart's numbers for a table."""
    return [
        (year, [(line.counts.get(year, 0), _percent(line.shares[year])) for line in series])
        for year in years
    ]


# --- the chart ----------------------------------------------------------------------------


def _scale_top(largest: float) -> float:
    """A round top for the share axis at or above the largest share."""
    for top in (0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 0.75, 1.0):
        if largest <= top:
            return top
    return 1.0


def _percent(share: float) -> str:
    return f"{share * 100:.1f}%"


def _axes(years, top, x, y) -> list[str]:
    parts = []
    for fraction in (0, 0.5, 1):
        level = y(top * fraction)
        parts.append(
            f'<line class="trend-grid" x1="{_LEFT}" x2="{_WIDTH - _RIGHT}" '
            f'y1="{level:.1f}" y2="{level:.1f}"/>'
            f'<text class="trend-axis" x="{_LEFT - 6}" y="{level + 4:.1f}" text-anchor="end">'
            f"{_percent(top * fraction)}</text>"
        )
    step = max(1, len(years) // 8)
    for year in years[::step]:
        parts.append(
            f'<text class="trend-axis" x="{x(year):.1f}" y="{_HEIGHT - _BOTTOM + 22}" '
            f'text-anchor="middle">{year}</text>'
        )
    return parts


def _papers(count: int) -> str:
    return "1 paper" if count == 1 else f"{count:,} papers"


def _line(index: int, line: Series, years, x, y) -> str:
    points = " ".join(f"{x(year):.1f},{y(line.shares[year]):.1f}" for year in years)
    dots = "".join(
        f'<circle cx="{x(year):.1f}" cy="{y(line.shares[year]):.1f}" r="3.5">'
        f"<title>{escape(line.label)}, {year}: {_percent(line.shares[year])} "
        f"({_papers(line.counts.get(year, 0))})</title></circle>"
        for year in years
    )
    return (
        f'<g class="trend-series series-{index}"><polyline points="{points}" fill="none"/>'
        f"{dots}</g>"
    )


def line_chart(series: list[Series], years: list[int], title: str) -> SafeString:
    """Shares per year as an SVG line chart, one line per series ("" with nothing to draw)."""
    if not years or not series:
        return mark_safe("")
    top = _scale_top(max(max(line.shares.values(), default=0) for line in series))
    span = max(1, years[-1] - years[0])
    inner_width = _WIDTH - _LEFT - _RIGHT
    inner_height = _HEIGHT - _TOP - _BOTTOM

    def x(year):
        if len(years) == 1:
            return _LEFT + inner_width / 2
        return _LEFT + inner_width * (year - years[0]) / span

    def y(share):
        return _TOP + inner_height * (1 - share / top)

    described = "; ".join(
        f"{line.label}: " + ", ".join(f"{year} {_percent(line.shares[year])}" for year in years)
        for line in series
    )
    lines = "".join(_line(index, line, years, x, y) for index, line in enumerate(series))
    svg = (
        f'<svg class="trend-chart" viewBox="0 0 {_WIDTH} {_HEIGHT}" width="100%" role="img" '
        f'aria-label="{escape(title)}" preserveAspectRatio="xMinYMin meet">'
        f"<title>{escape(title)}</title><desc>{escape(described)}</desc>"
        f"{''.join(_axes(years, top, x, y))}{lines}</svg>"
    )
    return mark_safe(svg)  # every text escaped above
