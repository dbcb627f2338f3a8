"""Titles' LaTeX read as plain text: what citations, <title> and meta tags carry."""

import pytest

from papers.latex import plain_text


@pytest.mark.parametrize(
    ("title", "plain"),
    [
        (
            r"\texttt{ModSCAN}: Measuring Stereotypical Bias",
            "ModSCAN: Measuring Stereotypical Bias",
        ),
        # The Anthology's <tex-math>L\_2</tex-math>: a subscript, as it shows it.
        (
            r"A Simple and Effective L\_2 Norm-Based Strategy",
            "A Simple and Effective L₂ Norm-Based Strategy",
        ),
        # Maths written without dollars: "F_1", "x_1" are subscripts even with no other LaTeX.
        (r"Minimal Subsets \mathcal{S}_t of F_1 and x_i", "Minimal Subsets S_t of F₁ and x_i"),
        ("F_1 of x_1", "F₁ of x₁"),
        ('JSON {"k": 1} for F_1 at x.org/?id=a_1', 'JSON {"k": 1} for F₁ at x.org/?id=a_1'),
        (r"snake_case and lemma\_ce\_coref stay", "snake_case and lemma_ce_coref stay"),
        (r"Code at \mathtt{github.com/a\_b}", "Code at github.com/a_b"),
        (
            r"\inftyBench: Extending Long Context Evaluation",
            "∞Bench: Extending Long Context Evaluation",
        ),
        (r"\muPLAN: Summarizing using a Content Plan", "μPLAN: Summarizing using a Content Plan"),
        (
            r"Knowledge Distillation \approx Label Smoothing",
            "Knowledge Distillation ≈ Label Smoothing",
        ),
        (r"\rm SP^3: Enhancing Structured Pruning", "SP³: Enhancing Structured Pruning"),
        (
            r"Refer360^{\circ}: A Dataset in 360^{\circ} Images",
            "Refer360°: A Dataset in 360° Images",
        ),
        (r"Embedding Refinement by \ell_{1} Norm", "Embedding Refinement by ℓ₁ Norm"),
        (r"RED^{\textrm{FM}}: a Filtered Dataset", "RED^FM: a Filtered Dataset"),
        (r"\textrm{DuReader}_{\textrm{vis}}: A Chinese Dataset", "DuReader_vis: A Chinese Dataset"),
        (r"P\text{M}^2\text{F}^2N: Patient Networks", "PM²F²N: Patient Networks"),
        (r"Once Upon a {\it Time} in {\it Graph}", "Once Upon a Time in Graph"),
        (r"USDC: \underline{U}ser \underline{S}tance", "USDC: User Stance"),
        (r"\mathcal{S}^2IT: Stepwise Syntax", "S²IT: Stepwise Syntax"),
        (r"G\smallE\normalsizeAR: {\large Graph}", "GEAR: Graph"),
        # Not LaTeX: left as written.
        ("#Turki$hTweets: A Benchmark", "#Turki$hTweets: A Benchmark"),
        ("snake_case stays", "snake_case stays"),
        (r"\left( is no \le", r"\left( is no ≤"),
        (r"Retrieval as Extraction (\bf{RE^2})", "Retrieval as Extraction (RE²)"),
        (r"f \propto r, p \equiv q", "f ∝ r, p ≡ q"),
        ("", ""),
    ],
)
def test_plain_text(title, plain):
    assert plain_text(title) == plain
