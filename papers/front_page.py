"""The front page: a search box, the venues by series and year, the newest complete records."""

from .models import Paper
from .venue_series import venue_grid, venue_series

RECENT_PAPERS = 10


def front_page() -> dict:
    """The front page's context (4 queries: venues, the newest ids, their cards)."""
    series = venue_series()
    years, rows = venue_grid(series)
    # The default order puts complete records first: its first page's complete ones are the
    # newest complete records, read without the filter (which would count every paper).
    recent = Paper.objects.cards(Paper.objects.newest_ids(RECENT_PAPERS))
    return {
        "years": years,
        "grid": rows,
        "paper_count": sum(group.papers for group in series),
        "venue_count": sum(c.venues for group in series for c in group.conferences),
        "recent": [paper for paper in recent if paper.complete],
    }
