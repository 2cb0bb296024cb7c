"""The engine's JSON files (:mod:`waddle.files`): written atomically, and a device or a
pipe named as the file is written to, never replaced."""

from __future__ import annotations

import json
import os
import stat
import threading

import pytest

from waddle.files import write_json


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
        if reader.is_alive():  # the write failed before opening the pipe: let the reader go
            with open(path, "w"):
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
