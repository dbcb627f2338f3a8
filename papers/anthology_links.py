"""A paper's addresses on the ACL Anthology, from its Anthology ID (the papers' external_id)."""

import re

ANTHOLOGY_URL = "https://aclanthology.org/"
# The shapes of the Anthology's own IDs (papers/anthology.py: anthology_id).
ANTHOLOGY_ID = r"(?:\d{4}\.[a-z0-9]+(?:-[a-z0-9]+)*\.\d+|[a-z]\d{2}-\d{4,5})"
_PAPER_ID = re.compile(ANTHOLOGY_ID, re.IGNORECASE)


def is_anthology_id(text: str | None) -> bool:
    """Whether an external ID is an Anthology paper's ("2024.emnlp-main.3", "P19-1001")."""
    return bool(text and _PAPER_ID.fullmatch(text))


def anthology_page(external_id: str | None) -> str:
    """The paper's page on the Anthology, or "" for a paper that is not from it."""
    return f"{ANTHOLOGY_URL}{external_id}/" if is_anthology_id(external_id) else ""


def anthology_pdf(external_id: str | None) -> str:
    """The paper's PDF on the Anthology, or ""."""
    return f"{ANTHOLOGY_URL}{external_id}.pdf" if is_anthology_id(external_id) else ""
