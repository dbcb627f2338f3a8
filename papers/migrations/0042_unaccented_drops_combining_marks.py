"""papers_unaccented drops the combining diacritical marks (U+0300–U+036F) too: a letter with
no precomposed form keeps its mark apart ("ẹ́" in "Tolúlọpẹ́": ẹ and an acute), and "Ogunremi"
found nothing of Tolúlọpẹ́ Ògúnrẹ̀mí's, nor offered her page (an outside tester). translate drops
what its second list lacks, so the marks are appended to the first. The indexes on the function
are built again, the papers whose authors' names have such marks get their names part again,
and the word statistics are recounted (as at 0027)."""

from django.db import migrations

# The function as 0022 wrote it, and with the marks appended (frozen copies: papers/schema_sql.py
# describes the current one).
OLD_UNACCENTED_FUNCTION = "\nCREATE OR REPLACE FUNCTION papers_unaccented(t text) RETURNS text\nLANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE\nAS $$ SELECT CASE WHEN octet_length(t) = length(t) THEN '' ELSE (\n    SELECT CASE WHEN f = t THEN '' ELSE f END\n    FROM translate(t, 'ĐđĦħıŁłØøŦŧÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžſƠơƯưǍǎǏǐǑǒǓǔǕǖǗǘǙǚǛǜǞǟǠǡǦǧǨǩǪǫǬǭǰǴǵǸǹǺǻȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗȘșȚțȞȟȦȧȨȩȪȫȬȭȮȯȰȱȲȳḀḁḂḃḄḅḆḇḈḉḊḋḌḍḎḏḐḑḒḓḔḕḖḗḘḙḚḛḜḝḞḟḠḡḢḣḤḥḦḧḨḩḪḫḬḭḮḯḰḱḲḳḴḵḶḷḸḹḺḻḼḽḾḿṀṁṂṃṄṅṆṇṈṉṊṋṌṍṎṏṐṑṒṓṔṕṖṗṘṙṚṛṜṝṞṟṠṡṢṣṤṥṦṧṨṩṪṫṬṭṮṯṰṱṲṳṴṵṶṷṸṹṺṻṼṽṾṿẀẁẂẃẄẅẆẇẈẉẊẋẌẍẎẏẐẑẒẓẔẕẖẗẘẙẛẠạẢảẤấẦầẨẩẪẫẬậẮắẰằẲẳẴẵẶặẸẹẺẻẼẽẾếỀềỂểỄễỆệỈỉỊịỌọỎỏỐốỒồỔổỖỗỘộỚớỜờỞởỠỡỢợỤụỦủỨứỪừỬửỮữỰựỲỳỴỵỶỷỸỹ', 'DdHhiLlOoTtAAAAAACEEEEIIIINOOOOOUUUUYaaaaaaceeeeiiiinooooouuuuyyAaAaAaCcCcCcCcDdEeEeEeEeEeGgGgGgGgHhIiIiIiIiIJjKkLlLlLlNnNnNnOoOoOoRrRrRrSsSsSsSsTtTtUuUuUuUuUuUuWwYyYZzZzZzsOoUuAaIiOoUuUuUuUuUuAaAaGgKkOoOojGgNnAaAaAaEeEeIiIiOoOoRrRrUuUuSsTtHhAaEeOoOoOoOoYyAaBbBbBbCcDdDdDdDdDdEeEeEeEeEeFfGgHhHhHhHhHhIiIiKkKkKkLlLlLlLlMmMmMmNnNnNnNnOoOoOoOoPpPpRrRrRrRrSsSsSsSsSsTtTtTtTtUuUuUuUuUuVvVvWwWwWwWwWwXxXxYyZzZzZzhtwysAaAaAaAaAaAaAaAaAaAaAaAaEeEeEeEeEeEeEeEeIiIiOoOoOoOoOoOoOoOoOoOoOoOoUuUuUuUuUuUuUuYyYyYyYy') AS f\n) END $$\n"
MARKS = "".join(chr(code) for code in range(0x300, 0x370))
UNACCENTED_FUNCTION = OLD_UNACCENTED_FUNCTION.replace("', 'DdHh", MARKS + "', 'DdHh")
REINDEX = ["REINDEX INDEX author_family_key", "REINDEX INDEX lexeme_unaccented"]
NAMES_VECTOR = "setweight(to_tsvector('english', COALESCE(papers_compounds(author_names || ' ' || papers_unaccented(author_names) || ' ' || papers_written_out(author_names)), '')), 'B')"
NAMES_AGAIN = f"""
ALTER TABLE papers_paper DISABLE TRIGGER papers_paper_search_vector;
UPDATE papers_paper SET search_vector = ts_filter(search_vector, '{{a,c}}') || {NAMES_VECTOR}
WHERE author_names ~ '[\\u0300-\\u036f]';
ALTER TABLE papers_paper ENABLE TRIGGER papers_paper_search_vector;
DELETE FROM papers_lexeme;
INSERT INTO papers_lexeme (word, documents, occurrences)
SELECT word, ndoc, nentry FROM ts_stat('SELECT search_vector FROM papers_paper');
"""


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0041_deleted_topics"),
    ]

    operations = [
        # One operation each way: the vectors are parsed again by the function it leaves.
        migrations.RunSQL(
            [UNACCENTED_FUNCTION, *REINDEX, NAMES_AGAIN],
            [OLD_UNACCENTED_FUNCTION, *REINDEX, NAMES_AGAIN],
        ),
    ]
