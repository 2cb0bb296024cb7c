"""Names keep valid emoji sequences (a joiner inside one stays, stray joiners and tags go)
and every width is counted in terminal cells, never cutting inside a grapheme cluster
(``protocol.text``)."""

import unicodedata

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from prompt_toolkit.utils import get_cwidth

from protocol.text import cells, clean, clean_name, cut, pad, shown

CODER = "\U0001f469\u200d\U0001f4bb"  # woman technologist: woman, joiner, laptop
FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
THUMB = "\U0001f44d\U0001f3fd"  # thumbs up, medium skin tone


@pytest.mark.parametrize("name", [CODER, FAMILY, SCOTLAND, THUMB, f"Ada {CODER}", "e\u0301te"])
def test_a_valid_emoji_sequence_or_accent_survives_cleaning(name):
    assert clean(name) == unicodedata.normalize("NFC", name)  # as it was (NFC: e + accent is é)


@pytest.mark.parametrize("raw, expected", [
    ("a\u200db", "ab"),                      # a joiner between letters
    ("\u200dAda", "Ada"),                    # at the start
    (f"Ada{chr(0x1f469)}\u200d", f"Ada{chr(0x1f469)}"),  # after an emoji, joining nothing
    ("\U000e0067\U000e0062Ada", "Ada"),      # tags outside a flag
    ("\u200d\u200d", ""),
])
def test_stray_joiners_and_tags_are_removed(raw, expected):
    assert clean(raw) == expected


@pytest.mark.parametrize("text, width", [
    ("abc", 3), ("日本", 4), (CODER, 2), (FAMILY, 2), (SCOTLAND, 2), (THUMB, 2),
    ("e\u0301", 1), ("", 0),
])
def test_widths_are_terminal_cells(text, width):
    assert cells(text) == width


def test_cutting_and_padding_never_split_a_cluster_and_count_cells():
    assert cut(f"ab{CODER}cd", 3) == "ab" and cut(f"ab{CODER}cd", 4) == f"ab{CODER}"
    assert cut("日本語", 5) == "日本" and cut("e\u0301e\u0301", 1) == "e\u0301"
    padded = pad(f"{CODER}x", 6)
    assert padded == f"{CODER}x   " and cells(padded) == 6
    assert pad("日本語", 5) == "日本 "


def test_names_are_cut_to_24_cells_at_a_cluster_boundary():
    name = clean_name("界" * 11 + CODER + "z", "P")
    assert name == "界" * 11 + CODER and cells(name) == 24
    assert cells(clean_name("界" * 30, "P")) == 24
    assert clean_name("\u200d\x1b[2J", "Player 2") == "Player 2"


@pytest.mark.parametrize("name, printed", [
    (f"Evil{FAMILY}", f"Evil{chr(0x1f468)}"),        # a joined sequence: its first emoji
    (f"Ada {CODER}", f"Ada {chr(0x1f469)}"),
    ("\U0001f1eb\U0001f1f7", "FR"),                  # a flag: its two letters
    (THUMB, "\U0001f44d"),                           # a skin tone: the hand alone
    ("\u2764\ufe0f", "\u2764"),                      # the emoji presentation selector goes
    (SCOTLAND, SCOTLAND),                             # the same width as one and in pieces: kept
    ("Zoë 企鹅", "Zoë 企鹅"),
])
def test_a_client_prints_each_emoji_sequence_in_cells_every_terminal_agrees_on(name, printed):
    assert shown(clean(name)) == printed


@given(st.text(alphabet=st.sampled_from(["a", "é", "企", "\u200d", "\ufe0f", "\U0001f468",
                                          "\U0001f469", "\U0001f3fd", "\U0001f1eb", "\U0001f1f7",
                                          "\u0301", " "]), max_size=12))
@example(" \u200d\U0001f3fda")  # a joiner left first by the strip, before a skin tone
def test_what_a_client_prints_takes_the_cells_prompt_toolkit_gives_it(text):
    printed = shown(clean(text))
    assert cells(printed) == get_cwidth(printed)


def test_a_phrase_takes_a_or_an_as_it_is_said():
    from protocol.text import with_article

    assert with_article("easy (random)") == "an easy (random)"
    assert with_article("Easy") == "an Easy"
    assert [with_article(kind) for kind in ("greedy", "hard", "uct", "search")] == [
        "a greedy", "a hard", "a uct", "a search"]


def test_a_move_s_mover_keeps_the_bot_s_kind_whole_and_says_it_once():
    from client.games.movers import mover

    assert mover("Pingu (greedy bot)", "greedy") == "Pingu (greedy bot)"
    assert mover("Skipper (medium bot)", "medium") == "Skipper (medium bot)"
    assert mover("Ann", "random") == "Ann [random]"   # a stand-in played for Ann
    assert mover("Ann", None) == "Ann"
    assert mover("Bartholomew Longname-Smith", "random") == "Bartholomew Lon [random]"  # 24 cells
    assert mover("Ann\x1b[2J", "gr\x1b[1meedy") == "Ann [greedy]"
