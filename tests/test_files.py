"""The engine's JSON files (:mod:`waddle.files`): written atomically, and a device or a
pipe named as the file is written to, never replaced."""

from __future__ import annotations

import io
import json
import os
import stat
import threading

import pytest

from waddle.files import parse_json, parse_toml, read_text, write_json


def test_a_file_is_replaced_whole_and_no_temporary_file_is_left(tmp_path):
    path = tmp_path / "game.json"
    path.write_text("old")
    write_json(path, {"a": 1})
    assert json.loads(path.read_text()) == {"a": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_named_as_the_file_is_written_to_not_replaced(tmp_path):
    # as --record /dev/null: the rename replaced the device with a file (as root, /dev/null itself)
    path = tmp_path / "pipe"
    os.mkfifo(path)
    read: list[str] = []
    reader = threading.Thread(target=lambda: read.append(path.read_text()))
    reader.start()
    try:
        write_json(path, {"a": 1})
    finally:
        try:  # if the write failed before opening the pipe, let the reader go; a reader that
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))  # has read holds no end: ENXIO
        except OSError:
            pass
        reader.join(10)
    assert stat.S_ISFIFO(os.stat(path).st_mode)
    assert json.loads(read[0]) == {"a": 1}


def test_names_are_written_as_utf8_text_indented_one_space_a_level(tmp_path):
    path = tmp_path / "game.json"
    write_json(path, {"names": ["Zoë", "企鹅"], "n": 1})
    assert path.read_text(encoding="utf-8") == '{\n "names": [\n  "Zoë",\n  "企鹅"\n ],\n "n": 1\n}\n'


def test_a_value_json_cannot_carry_writes_nothing(tmp_path):
    path = tmp_path / "game.json"
    path.write_text("old")
    with pytest.raises(TypeError):
        write_json(path, {"a": object()})
    assert path.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["game.json"]


# -- reading: bounded, and refused in one ValueError whatever the content ----------------


def test_a_file_over_the_cap_is_refused_naming_the_cap_and_one_at_the_cap_is_read(tmp_path):
    path = tmp_path / "map.toml"
    path.write_bytes(b"#" * 101)
    with pytest.raises(ValueError, match="too large: over the 100-byte cap"):
        read_text(path, 100)
    path.write_bytes(b"#" * 100)
    assert read_text(path, 100) == "#" * 100


def test_an_endless_stream_is_read_no_further_than_one_byte_past_the_cap():
    stream = io.BytesIO(b"\0" * 1_000_000)  # as /dev/zero, which never ends
    with pytest.raises(ValueError, match="too large"):
        read_text(stream, 1000)
    assert stream.tell() == 1001


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_dev_zero_is_refused_as_too_large():
    with pytest.raises(ValueError, match="too large: over the 1,000-byte cap"):
        read_text("/dev/zero", 1000)


def test_a_file_that_is_not_utf8_is_a_value_error(tmp_path):
    path = tmp_path / "record.json"
    path.write_bytes(b'{"name": "\xff"}')
    with pytest.raises(ValueError, match="utf-8"):
        read_text(path, 100)


def test_a_missing_file_is_an_os_error(tmp_path):
    with pytest.raises(OSError):
        read_text(tmp_path / "nowhere.json", 100)


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"a":' * 100_000 + "1" + "}" * 100_000])
def test_json_nested_too_deeply_is_a_value_error(text):
    with pytest.raises(ValueError, match="nested too deeply"):
        parse_json(text)


@pytest.mark.parametrize("text", ["a = " + "[" * 100_000 + "]" * 100_000,
                                  "a = " + "{b = " * 100_000 + "1" + "}" * 100_000])
def test_toml_nested_too_deeply_is_a_value_error(text):
    with pytest.raises(ValueError, match="nested too deeply"):
        parse_toml(text)


def test_a_toml_key_with_too_many_dots_is_refused_before_it_is_parsed():
    # tomllib keeps every prefix of a dotted key: 20,000 parts took 1.5 GB (a 40 KB line)
    with pytest.raises(ValueError, match=r"line 2: a key nested too deeply \(more than 64 dots\)"):
        parse_toml('name = "x"\na' + ".b" * 20_000 + " = 1\n")
    assert parse_toml("# " + ". " * 200 + "\na.b.c = 1\n") == {"a": {"b": {"c": 1}}}  # a drawing in a comment


def test_toml_and_json_errors_are_value_errors():
    for parse, text in ((parse_json, "{not json"), (parse_toml, "a = "), (parse_toml, "a = " + "9" * 5000)):
        with pytest.raises(ValueError):
            parse(text)
