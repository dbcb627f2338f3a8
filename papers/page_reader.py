"""A page read block by block: the decisions on each block (``load_papers -v 2`` prints them),
the warnings, and the papers read (pure)."""

from .dump_blocks import Block
from .records import Decision, PaperRecord, ParsedFile
from .text import fold_whitespace


def paragraphs_to_abstract(blocks: list[Block]) -> str:
    """Paragraphs kept, whitespace inside each folded."""
    return "\n\n".join(block.folded for block in blocks)


def _short(text: str, limit: int = 70) -> str:
    text = fold_whitespace(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class PageReader:
    """Reads one page's blocks, recording a decision for each."""

    def __init__(self, source: str, blocks: list[Block]):
        self.source = source
        self.blocks = blocks
        self.parsed = ParsedFile(source=source)

    def decide(self, block: Block, kind: str, text: str | None = None, evidence: str = "") -> None:
        decision = Decision(block.line, kind, _short(text or block.text), evidence)
        self.parsed.decisions.append(decision)

    def warn(self, block: Block, message: str) -> None:
        self.parsed.warnings.append(f"{self.source}, line {block.line}: {message}")

    def add_paper(
        self, abstract_blocks: list[Block], venue: str, evidence: str = "", **fields
    ) -> PaperRecord:
        paper = PaperRecord(
            abstract=paragraphs_to_abstract(abstract_blocks),
            venue=venue,
            line=abstract_blocks[0].line,
            **fields,
        )
        self.parsed.papers.append(paper)
        count = len(abstract_blocks)
        for number, block in enumerate(abstract_blocks, start=1):
            where = f"paragraph {number} of {count}; " if count > 1 else ""
            self.decide(block, "abstract", evidence=where + evidence)
        return paper
