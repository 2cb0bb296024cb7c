"""A person's ``--name`` on the command line: refused when longer than a host keeps
(``protocol.messages.NAME_SHOWN`` cells), before anything connects."""

from __future__ import annotations

import pytest

from client.cli import main
from client.ui.options import check_name
from protocol.messages import NAME_SHOWN
from protocol.text import clean_name


def test_a_name_a_host_would_cut_is_refused_naming_the_limit(capsys):
    long = "Alexandra-Konstantinopoulou"  # 27 characters: a host keeps 24
    status = main(["join", "127.0.0.1:9", "--table", "t1", "--name", long])
    err = capsys.readouterr().err
    assert status != 0
    assert "--name is 27 characters long; a host keeps at most 24: choose a shorter one" in err
    assert "refused" not in err and "connect" not in err  # said before anything was tried


def test_a_bot_s_name_a_host_would_cut_is_refused_too(capsys):
    status = main(["bot", "127.0.0.1:9", "--name", "Alexandra-Konstantinopoulou"])
    err = capsys.readouterr().err
    assert status != 0 and "--name is 27 characters long; a host keeps at most 24" in err
    assert "connect" not in err  # said before anything was tried


def test_two_names_a_host_would_keep_as_one_are_both_refused():
    first, second = "Alexandra-Konstantinopoulou", "Alexandra-Konstantinopoulos"
    assert clean_name(first, "x") == clean_name(second, "x")  # what a host would keep of each
    for name in (first, second):
        with pytest.raises(ValueError, match="at most 24"):
            check_name(name)


def test_a_name_a_host_keeps_whole_is_taken_as_given():
    for name in ("A" * NAME_SHOWN, "Ann", "Zoë Ångström", "漢" * (NAME_SHOWN // 2), "Ann" + " " * 30):
        assert check_name(name) == name
        assert clean_name(name, "x") == name.rstrip()


def test_wide_characters_count_as_the_cells_a_host_counts():
    with pytest.raises(ValueError, match=r"--name is 26 characters long \(terminal cells: a wide character "
                                         r"counts 2\); a host keeps at most 24"):
        check_name("漢" * 13)
