"""The ACL Anthology XML parser: small XML written here, then the real files when present."""

import io
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papers.anthology import anthology_id, looks_like_anthology, parse_anthology
from papers.latex import plain_text
from papers.records import DumpError
from tests.conftest import SHARED_DIR, anthology_dir
from tests.support import independent_counts


def parse(xml: str, source: str = "test.xml"):
    return parse_anthology(io.BytesIO(xml.encode("utf-8")), source)


META = """
    <meta>
      <booktitle>{booktitle}</booktitle>
      <editor><first>Ed</first><last>Itor</last></editor>
      <editor id="ana-de-la-cruz"><first>Ana</first><last>de la Cruz</last></editor>
      <editor><last>Plato</last></editor>
      <publisher>Association for Computational Linguistics</publisher>
      <address>{address}</address>
      <month>{month}</month>
      <year>{year}</year>
      <venue>{venue}</venue>
    </meta>"""


def volume(volume_id, booktitle, papers, *, year=2024, venue="acl", kind="proceedings"):
    meta = META.format(
        booktitle=booktitle, address="Bangkok, Thailand", month="August", year=year, venue=venue
    )
    return f'<volume id="{volume_id}" type="{kind}">{meta}\n{papers}\n</volume>'


def paper(paper_id, title="A Title", abstract="An abstract.", authors=None, extra="", url=None):
    authors = (
        authors if authors is not None else "<author><first>Ann</first><last>Lee</last></author>"
    )
    abstract_xml = f"<abstract>{abstract}</abstract>" if abstract is not None else ""
    url_xml = f"<url hash='x'>{url}</url>" if url else ""
    return (
        f'<paper id="{paper_id}"><title>{title}</title>{authors}<pages>1-10</pages>'
        f"{abstract_xml}{url_xml}<bibkey>key-{paper_id}</bibkey>{extra}</paper>"
    )


def collection(collection_id, *volumes):
    body = "\n".join(volumes)
    head = "<?xml version='1.0' encoding='UTF-8'?>"
    return f'{head}\n<collection id="{collection_id}">\n{body}\n</collection>\n'


ACL_2024 = collection(
    "2024.acl",
    volume(
        "long",
        "Proceedings of the 62nd Annual Meeting of the Association for Computational "
        "Linguistics (Volume 1: Long Papers)",
        '<frontmatter><url hash="a">2024.acl-long.0</url>'
        "<bibkey>acl-2024-long</bibkey></frontmatter>\n"
        + paper(
            1,
            title="<fixed-case>U</fixed-case>ni<fixed-case>G</fixed-case>en: Universal   Domain\n"
            "      Generalization with <tex-math>O(n^2)</tex-math> cost",
            abstract="Large <i>language</i> models\n   are <b>big</b>. Code at <url>https://x.org/y</url>.",
            authors="<author><first>Juhwan</first><last>Choi</last></author>"
            '<author orcid="0000-0001-6868-286X"><first>JungMin</first><last>Yun</last>'
            "<affiliation>Chung-Ang University</affiliation></author>"
            "<author><last>Plato</last></author>",
            extra="<doi>10.18653/v1/2024.acl-long.1</doi>",
            url="2024.acl-long.1",
        )
        + "\n"
        + paper(2, abstract=None)
        + "\n"
        + paper(3, abstract="")
        + "\n"
        + paper(4, abstract="First paragraph\n  goes on.\n\n   Second paragraph."),
    ),
    volume(
        "short",
        "Proceedings of the 62nd Annual Meeting of the Association for Computational "
        "Linguistics (Volume 2: Short Papers)",
        paper(1),
    ),
    volume(
        "demos",
        "Proceedings of the 62nd Annual Meeting of the Association for Computational "
        "Linguistics (Volume 3: System Demonstrations)",
        paper(1),
    ),
    volume(
        "srw",
        "Proceedings of the 62nd Annual Meeting of the Association for Computational "
        "Linguistics (Volume 4: Student Research Workshop)",
        paper(1),
    ),
)


# --- recognising a file -----------------------------------------------------------------


@pytest.mark.parametrize(
    "head",
    [
        b'<?xml version="1.0" encoding="UTF-8"?>\n<collection id="2024.acl">\n  <volume',
        b'\xef\xbb\xbf<?xml version="1.0"?><collection id="P19">',
        b"<!-- exported -->\n<collection  id='2020.emnlp'>",
        b'<collection id="2024.acl">',
        b"<?xml version='1.0'?>\n<!DOCTYPE collection [<!ENTITY a 'b'>]>\n<collection id='x'>",
    ],
)
def test_recognises_an_anthology_collection_by_content(head):
    assert looks_like_anthology(head)


@pytest.mark.parametrize(
    "head",
    [
        b"ACL 2025 Papers\n\nLarge language models are...",
        b'{"id": 1, "title": "x"}\n',
        b'<?xml version="1.0"?><volume id="main">',
        b"<?xml version='1.0'?><collection><volume id='1'>",
        b"<collections id='x'>",
        b"",
        b"\x00\x01\x02binary",
        b"Some text mentioning <collection id='x'> in the middle",
    ],
)
def test_does_not_take_other_files_for_anthology(head):
    assert not looks_like_anthology(head)


# --- papers -------------------------------------------------------------------------------


def test_titles_and_abstracts_keep_the_text_of_their_markup():
    first = parse(ACL_2024).papers[0]
    assert first.title == "UniGen: Universal Domain Generalization with O(n^2) cost"
    assert first.abstract == "Large language models are big. Code at https://x.org/y."


def test_maths_ending_in_a_command_is_not_run_into_the_next_word():
    title = (
        "Text<tex-math>\\rightarrow</tex-math>image, En<tex-math>\\rightarrow</tex-math>De, "
        "<tex-math>\\alpha</tex-math> and <tex-math>k</tex-math>th, "
        "<tex-math>\\infty</tex-math><fixed-case>B</fixed-case>ench, x<tex-math>\\to</tex-math>"
    )
    abstract = (
        "From text<tex-math>\\rightarrow</tex-math>image.\n\nTwo <tex-math>\\beta</tex-math>s."
    )
    record = parse(collection("2024.acl", volume("long", "P", paper(1, title, abstract))))
    paper_record = record.papers[0]
    assert paper_record.title == (
        r"Text\rightarrow{}image, En\rightarrow{}De, \alpha and kth, \infty{}Bench, x\to"
    )
    assert paper_record.abstract == "From text\\rightarrow{}image.\n\nTwo \\beta{}s."
    assert plain_text(paper_record.title) == "Text→image, En→De, α and kth, ∞Bench, x→"


def test_a_tie_in_maths_is_a_space_and_outside_it_a_tilde():
    # "<tex-math>Great~Truths~are ~Always ~Simple:</tex-math>" showed "are ~Always ~Simple"
    # on the page and in BibTeX (an outside researcher); "~100" in text is "about 100".
    title = "<tex-math>Great~Truths~are ~Always ~Simple:</tex-math> A Rather Simple Encoder"
    record = parse(collection("2024.acl", volume("long", "P", paper(1, title, "About ~100."))))
    assert record.papers[0].title == "Great Truths are Always Simple: A Rather Simple Encoder"
    assert record.papers[0].abstract == "About ~100."


def test_authors_in_order_with_orcid_and_editors_skipped():
    first = parse(ACL_2024).papers[0]
    assert [author.name for author in first.authors] == ["Juhwan Choi", "JungMin Yun", "Plato"]
    assert [author.orcid for author in first.authors] == ["", "0000-0001-6868-286X", ""]
    names = {author.name for record in parse(ACL_2024).papers for author in record.authors}
    assert "Ed Itor" not in names


def test_an_authors_family_name_is_the_anthologys_last():
    authors = (
        "<author><first>Luis</first><last>Espinosa Anke</last></author>"
        "<author><first>Marten</first><last>van Schijndel</last></author>"
        "<author><last>Plato</last></author>"
    )
    record = parse(collection("2024.acl", volume("long", "Proceedings", paper(1, authors=authors))))
    assert [(a.name, a.family) for a in record.papers[0].authors] == [
        ("Luis Espinosa Anke", "Espinosa Anke"),
        ("Marten van Schijndel", "van Schijndel"),
        ("Plato", "Plato"),
    ]


def test_a_name_given_as_both_first_and_last_is_said_once():
    authors = "<author><first>ZhiqiBai</first><last>ZhiqiBai</last></author>"
    record = parse(collection("2024.acl", volume("long", "Proceedings", paper(1, authors=authors))))
    assert [author.name for author in record.papers[0].authors] == ["ZhiqiBai"]
    authors = "<author><first>He</first><last>He</last></author>"
    record = parse(collection("2024.acl", volume("long", "Proceedings", paper(1, authors=authors))))
    assert [author.name for author in record.papers[0].authors] == ["He He"]


def test_ids_links_and_bibliographic_fields():
    first = parse(ACL_2024).papers[0]
    assert first.external_id == "2024.acl-long.1"
    assert first.url == "https://aclanthology.org/2024.acl-long.1"
    assert first.pages == "1-10"
    assert first.doi == "10.18653/v1/2024.acl-long.1"
    assert first.bibkey == "key-1"
    assert first.venue == "ACL 2024"
    # The line where <paper id="1"> starts.
    assert first.line == next(
        number for number, text in enumerate(ACL_2024.splitlines(), 1) if '<paper id="1">' in text
    )


def test_a_paper_id_given_twice_is_warned_of():
    papers = "".join(paper(n, title=f"Paper {n}") for n in (1, 2, 1, 3, 3, 4, 4, 5, 5))
    parsed = parse(collection("2024.acl", volume("long", "Proceedings of ACL 2024", papers)))
    assert parsed.warnings == [
        "4 paper IDs given to several <paper> elements (2024.acl-long.1, 2024.acl-long.3, "
        "2024.acl-long.4, …): each is loaded as one paper, the first element's fields kept"
    ]


def test_a_url_element_naming_another_anthology_page_is_kept():
    xml = collection(
        "2023.acl",
        volume(
            "long",
            "Proceedings of the 61st Annual Meeting (Volume 1: Long Papers)",
            '<paper id="911"><title>Report</title><url>2023.acl-long.report</url></paper>',
            year=2023,
        ),
    )
    record = parse(xml).papers[0]
    assert record.external_id == "2023.acl-long.911"
    assert record.url == "https://aclanthology.org/2023.acl-long.report"


def test_papers_without_an_abstract_are_included_and_frontmatter_is_not_a_paper():
    records = parse(ACL_2024).papers
    long_papers = [record for record in records if record.venue == "ACL 2024"]
    assert [record.external_id for record in long_papers] == [
        "2024.acl-long.1",
        "2024.acl-long.2",
        "2024.acl-long.3",
        "2024.acl-long.4",
    ]
    assert long_papers[1].abstract == ""
    assert long_papers[2].abstract == ""
    assert all(not record.external_id.endswith(".0") for record in records)


def test_abstract_paragraphs_are_kept_and_whitespace_inside_folded():
    fourth = parse(ACL_2024).papers[3]
    assert fourth.abstract == "First paragraph goes on.\n\nSecond paragraph."


def test_accepts_a_path_as_well_as_a_file(tmp_path):
    path = tmp_path / "2024.acl.xml"
    path.write_text(ACL_2024, encoding="utf-8")
    from_path = parse_anthology(path, str(path))
    from_string_path = parse_anthology(str(path), str(path))
    assert from_path.papers == from_string_path.papers == parse(ACL_2024).papers
    assert from_path.source == str(path)


# --- venues -------------------------------------------------------------------------------


def test_each_volume_is_a_venue_named_from_its_metadata():
    venues = parse(ACL_2024).venues
    assert [(venue.name, venue.parent) for venue in venues] == [
        ("ACL 2024", ""),
        ("ACL 2024 (Short Papers)", "ACL 2024"),
        ("ACL 2024 (Demos)", "ACL 2024"),
        ("ACL 2024 (SRW)", "ACL 2024"),
    ]
    main = venues[0]
    assert main.acronym == "ACL"
    assert main.year == 2024
    assert main.location == "Bangkok, Thailand"
    assert main.month == "August"
    assert main.publisher == "Association for Computational Linguistics"
    assert main.editors == "Itor, Ed\nde la Cruz, Ana\nPlato"
    assert main.external_id == "2024.acl-long"
    assert main.booktitle.startswith("Proceedings of the 62nd Annual Meeting")
    assert main.full_name == "62nd Annual Meeting of the Association for Computational Linguistics"
    assert [record.venue for record in parse(ACL_2024).papers[4:]] == [
        "ACL 2024 (Short Papers)",
        "ACL 2024 (Demos)",
        "ACL 2024 (SRW)",
    ]


def test_findings_volumes_know_their_parent_conference():
    xml = collection(
        "2023.findings",
        volume(
            "emnlp",
            "Findings of the Association for Computational Linguistics: "
            "<fixed-case>EMNLP</fixed-case> 2023",
            paper(1),
            year=2023,
            venue="findings",
        ),
        volume(
            "acl",
            "Findings of the Association for Computational Linguistics: ACL 2023",
            paper(7),
            year=2023,
            venue="findings",
        ),
    )
    parsed = parse(xml)
    assert [(venue.name, venue.parent, venue.acronym) for venue in parsed.venues] == [
        ("Findings of EMNLP 2023", "EMNLP 2023", "EMNLP"),
        ("Findings of ACL 2023", "ACL 2023", "ACL"),
    ]
    # <fixed-case> in a booktitle is flattened to its text.
    assert parsed.venues[0].booktitle == (
        "Findings of the Association for Computational Linguistics: EMNLP 2023"
    )
    assert [record.external_id for record in parsed.papers] == [
        "2023.findings-emnlp.1",
        "2023.findings-acl.7",
    ]
    assert parsed.papers[0].venue == "Findings of EMNLP 2023"


def test_other_volume_kinds_and_journals():
    xml = collection(
        "2022.naacl",
        volume(
            "main",
            "Proceedings of the 2022 Conference of NAACL",
            paper(1),
            year=2022,
            venue="naacl",
        ),
        volume(
            "industry",
            "Proceedings of the 2022 Conference of NAACL: Industry Track",
            paper(1),
            year=2022,
            venue="naacl",
        ),
        volume(
            "tutorials",
            "Proceedings of the 2022 Conference of NAACL: Tutorial Abstracts",
            paper(1),
            year=2022,
            venue="naacl",
        ),
        volume(
            "hackathon",
            "Proceedings of the 2022 Conference of NAACL: Hackathon Reports",
            paper(1),
            year=2022,
            venue="naacl",
        ),
    )
    assert [(venue.name, venue.parent) for venue in parse(xml).venues] == [
        ("NAACL 2022", ""),
        ("NAACL 2022 (Industry Track)", "NAACL 2022"),
        ("NAACL 2022 (Tutorials)", "NAACL 2022"),
        ("NAACL 2022 (Hackathon Reports)", "NAACL 2022"),
    ]
    tacl = collection(
        "2023.tacl",
        volume(
            "1",
            "Transactions of the Association for Computational Linguistics, Volume 11",
            paper(5),
            year=2023,
            venue="tacl",
            kind="journal",
        ),
    )
    parsed = parse(tacl)
    assert [(venue.name, venue.parent, venue.acronym) for venue in parsed.venues] == [
        ("TACL 2023", "", "TACL")
    ]
    assert parsed.papers[0].external_id == "2023.tacl-1.5"


def test_a_joint_event_named_in_the_booktitle():
    xml = collection(
        "2024.lrec",
        volume(
            "main",
            "Proceedings of the 2024 Joint International Conference on Computational Linguistics, "
            "Language Resources and Evaluation (LREC-COLING 2024)",
            paper(1),
            venue="lrec</venue><venue>coling",
        ),
        volume(
            "tutorials",
            "Proceedings of the 2024 Joint International Conference (LREC-COLING 2024): "
            "Tutorial Summaries",
            paper(1),
            venue="lrec",
        ),
    )
    assert [(venue.name, venue.parent) for venue in parse(xml).venues] == [
        ("LREC-COLING 2024", ""),
        ("LREC-COLING 2024 (Tutorials)", "LREC-COLING 2024"),
    ]


def test_old_style_anthology_ids():
    assert anthology_id("P19", "1", "1") == "P19-1001"
    assert anthology_id("W19", "50", "3") == "W19-5003"
    assert anthology_id("2024.emnlp", "main", "3") == "2024.emnlp-main.3"
    assert anthology_id("2024.emnlp", "main") == "2024.emnlp-main"


# --- errors and hostile XML ---------------------------------------------------------------


BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE collection [
  <!ENTITY lol "lol">
  <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
  <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
  <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
  <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
  <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
  <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
  <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<collection id="2024.acl"><volume id="main"><meta><year>2024</year></meta>
<paper id="1"><title>&lol9;</title></paper></volume></collection>
"""


def test_entity_expansion_is_refused():
    assert looks_like_anthology(BILLION_LAUGHS.encode())
    started = time.perf_counter()
    with pytest.raises(DumpError) as caught:
        parse(BILLION_LAUGHS, "laughs.xml")
    assert time.perf_counter() - started < 2
    assert caught.value.source == "laughs.xml"
    assert "unsafe" in caught.value.reason
    assert caught.value.line == 3  # the first entity declaration


def test_external_entities_are_refused(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET", encoding="utf-8")
    xml = f"""<?xml version="1.0"?>
<!DOCTYPE collection [<!ENTITY leak SYSTEM "{secret.as_uri()}">]>
<collection id="2024.acl"><volume id="main"><meta><year>2024</year></meta>
<paper id="1"><title>&leak;</title><abstract>x</abstract></paper></volume></collection>
"""
    with pytest.raises(DumpError) as caught:
        parse(xml, "leak.xml")
    assert "unsafe" in caught.value.reason
    assert "TOP SECRET" not in str(caught.value)


def test_an_external_dtd_is_not_fetched():
    xml = """<?xml version="1.0"?>
<!DOCTYPE collection SYSTEM "http://127.0.0.1:9/evil.dtd">
<collection id="2024.acl"><volume id="main"><meta><year>2024</year></meta>
<paper id="1"><title>A title</title></paper></volume></collection>
"""
    # Not fetched (expat never loads external DTDs here): the file parses or is refused, quickly.
    started = time.perf_counter()
    try:
        parsed = parse(xml)
    except DumpError:
        pass
    else:
        assert parsed.papers[0].title == "A title"
    assert time.perf_counter() - started < 2


def test_malformed_xml_names_the_line():
    xml = ACL_2024.replace("<bibkey>key-2</bibkey>", "<bibkey>key-2</bibkye>")
    broken_line = next(
        number for number, text in enumerate(xml.splitlines(), 1) if "key-2</bibkye>" in text
    )
    with pytest.raises(DumpError) as caught:
        parse(xml, "broken.xml")
    assert caught.value.line == broken_line
    assert "not well-formed" in caught.value.reason
    assert str(caught.value).startswith(f"broken.xml, line {broken_line}: ")


@pytest.mark.parametrize(
    ("xml", "reason"),
    [
        (ACL_2024[: len(ACL_2024) // 2], "not well-formed"),
        ("<?xml version='1.0'?><volume id='main'></volume>", "not an Anthology file"),
        ("<collection id='2024.acl'></collection>", "no <paper>"),
        (
            "<collection id='2024.acl'><volume id='main'><paper id='1'/></volume></collection>",
            "before",
        ),
        ("<collection id='2024.acl'>&nbsp;</collection>", "not well-formed"),
        ('<?xml version="1.0" encoding="bogus"?><collection id="x"/>', "cannot read"),
        ("", "not well-formed"),
    ],
)
def test_broken_files_raise_dump_errors(xml, reason):
    with pytest.raises(DumpError) as caught:
        parse(xml, "bad.xml")
    assert reason in caught.value.reason
    assert caught.value.source == "bad.xml"


PIECES = [
    '<?xml version="1.0" encoding="latin-1"?>',
    '<?xml version="1.0" encoding="bogus"?>',
    '<collection id="2024.acl">',
    '<collection id="P19">',
    "</collection>",
    '<volume id="main">',
    '<volume id="1" type="journal">',
    "<volume>",
    "</volume>",
    "<meta>",
    "</meta>",
    "<year>2024</year>",
    "<year>x</year>",
    "<booktitle>B (Volume 1: Long Papers)</booktitle>",
    "<venue>findings</venue>",
    '<paper id="1">',
    '<paper id="x">',
    "<paper>",
    "</paper>",
    "<title>T</title>",
    "<abstract>A</abstract>",
    "<author><first>F</first><last>L</last></author>",
    "<frontmatter>",
    "</frontmatter>",
    "&amp;",
    "&#0;",
    "<![CDATA[x]]>",
    "<!-- c -->",
    "<!DOCTYPE collection>",
    "\x00",
    "text",
    "\n",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30), st.sampled_from(["utf-8", "utf-16"]))
def test_arbitrary_xml_gives_records_or_a_dump_error(pieces, encoding):
    data = "".join(pieces).encode(encoding)
    try:
        parsed = parse_anthology(io.BytesIO(data), "fuzz.xml")
    except DumpError as error:
        assert error.source == "fuzz.xml"
    else:
        assert parsed.papers


def test_a_missing_file_is_a_dump_error(tmp_path):
    with pytest.raises(DumpError):
        parse_anthology(tmp_path / "nope.xml", "nope.xml")


# --- the real Anthology files -------------------------------------------------------------


@pytest.mark.anthology
def test_every_real_paper_once_with_its_abstract(anthology_files):
    expected_papers = expected_abstracts = 0
    expected_ids: set[str] = set()
    for path in anthology_files:
        papers, with_abstract, ids = independent_counts(path)
        expected_papers += papers
        expected_abstracts += with_abstract
        expected_ids |= ids

    records = []
    venues = []
    for path in anthology_files:
        assert looks_like_anthology(path.read_bytes()[:4096]), path.name
        parsed = parse_anthology(path, path.name)
        records.extend(parsed.papers)
        venues.extend(parsed.venues)

    assert len(records) == expected_papers
    assert sum(1 for record in records if record.abstract) == expected_abstracts
    assert {record.external_id for record in records} == expected_ids
    assert len({record.external_id for record in records}) == len(records)
    if anthology_dir() == SHARED_DIR / "data" / "anthology":
        assert (len(records), expected_abstracts) == (26014, 25471)

    assert all(record.title and record.venue and record.url for record in records)
    assert all(record.line for record in records)
    venue_names = [venue.name for venue in venues]
    assert len(venue_names) == len(set(venue_names))
    for venue in venues:
        if venue.name.startswith("Findings of "):
            assert venue.parent == venue.name.removeprefix("Findings of ")


@pytest.mark.anthology
def test_a_known_real_paper(anthology_files):
    path = anthology_dir() / "2024.emnlp.xml"
    if not path.exists():
        pytest.skip("2024.emnlp.xml is not in the Anthology folder")
    parsed = parse_anthology(path, path.name)
    first = parsed.papers[0]
    assert first.external_id == "2024.emnlp-main.1"
    assert first.title.startswith("UniGen: Universal Domain Generalization")
    assert [author.name for author in first.authors][:4] == [
        "Juhwan Choi",
        "Yeonghwa Kim",
        "Seunguk Yu",
        "JungMin Yun",
    ]
    assert first.authors[3].orcid == "0000-0001-6868-286X"
    assert first.doi == "10.18653/v1/2024.emnlp-main.1"
    assert first.bibkey == "choi-etal-2024-unigen"
    main = parsed.venues[0]
    assert (main.name, main.location, main.month, main.year) == (
        "EMNLP 2024",
        "Miami, Florida, USA",
        "November",
        2024,
    )
