"""Uploaded bots are checked before anything is written: sizes, file counts, member names and kinds, and the
size an archive really inflates to (zip and gzip bombs)."""

import gzip
import io
import stat
import tarfile
import zipfile

import pytest

from arena.league.web.uploads import UploadError, UploadLimits, unpack_upload

LIMITS = UploadLimits(max_bytes=100_000, max_files=5, max_unpacked_bytes=50_000)


def zipped(files, links=()):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
        for name, target in links:
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, target)
    return buffer.getvalue()


def tarred(files, extra=()):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        for info in extra:
            archive.addfile(info)
    return buffer.getvalue()


def refused(tmp_path, filename, data, limits=LIMITS):
    destination = tmp_path / "out"
    destination.mkdir(parents=True)
    with pytest.raises(UploadError) as caught:
        unpack_upload(filename, data, destination, limits)
    assert list(destination.iterdir()) == []  # nothing written
    return str(caught.value)


def test_a_module_is_written_as_it_is(tmp_path):
    path = unpack_upload("my_bot.py", b"print('hi')\n", tmp_path, LIMITS)
    assert path == tmp_path / "my_bot.py" and path.read_bytes() == b"print('hi')\n"


def test_a_zipped_folder_unpacks_to_its_single_top_folder(tmp_path):
    data = zipped({"mybot/arena-bot.toml": b"name = 'x'\n", "mybot/src/bot.py": b"pass\n"})
    path = unpack_upload("mybot.zip", data, tmp_path, LIMITS)
    assert path == tmp_path / "mybot" / "mybot"
    assert (path / "src" / "bot.py").read_bytes() == b"pass\n" and (path / "arena-bot.toml").is_file()


def test_a_tarball_with_files_at_its_root_unpacks_to_a_folder_named_after_it(tmp_path):
    path = unpack_upload("floodfill.tar.gz", tarred({"arena-bot.toml": b"a", "bot.js": b"b"}), tmp_path, LIMITS)
    assert path == tmp_path / "floodfill"
    assert sorted(p.name for p in path.iterdir()) == ["arena-bot.toml", "bot.js"]


@pytest.mark.parametrize(("name", "reason"), [
    ("../evil.py", "climbs out of the folder with '..'"),
    ("bot/../../evil.py", "climbs out of the folder with '..'"),
    ("/etc/evil.py", "has an absolute path"),
    ("C:/evil.py", "has an absolute path"),
    ("bot\\..\\evil.py", "has a backslash or NUL in its name"),
])
def test_member_names_that_could_leave_the_folder_are_refused(tmp_path, name, reason):
    assert reason in refused(tmp_path, "bot.zip", zipped({"ok.py": b"", name: b"x"}))
    assert reason in refused(tmp_path / "tar", "bot.tar.gz", tarred({"ok.py": b"", name: b"x"})) or \
        name.startswith("C:")


def test_links_and_devices_are_refused(tmp_path):
    assert "is a link" in refused(tmp_path, "bot.zip", zipped({"a.py": b""}, links=[("b.py", "/etc/passwd")]))
    symlink = tarfile.TarInfo("b.py")
    symlink.type, symlink.linkname = tarfile.SYMTYPE, "/etc/passwd"
    assert "is a link" in refused(tmp_path / "s", "bot.tgz", tarred({"a.py": b""}, [symlink]))
    hardlink = tarfile.TarInfo("c.py")
    hardlink.type, hardlink.linkname = tarfile.LNKTYPE, "a.py"
    assert "is a link" in refused(tmp_path / "h", "bot.tgz", tarred({"a.py": b""}, [hardlink]))
    fifo = tarfile.TarInfo("pipe")
    fifo.type = tarfile.FIFOTYPE
    assert "not a file or a folder" in refused(tmp_path / "f", "bot.tgz", tarred({"a.py": b""}, [fifo]))


def test_too_many_files_and_too_many_bytes_are_refused(tmp_path):
    six = {f"f{i}.py": b"" for i in range(6)}
    assert "holds 6 files; at most 5" in refused(tmp_path, "bot.zip", zipped(six))
    assert "the upload is larger than 100,000 bytes" in refused(tmp_path / "big", "bot.py", b"#" * 100_001)
    assert "the upload is empty" in refused(tmp_path / "empty", "bot.py", b"")


def test_a_zip_bomb_is_refused_by_its_declared_size_before_it_is_inflated(tmp_path):
    bomb = zipped({"zeros.bin": b"\0" * 10_000_000})
    assert len(bomb) < LIMITS.max_bytes
    assert "unpacks to 10,000,000 bytes; at most 50,000" in refused(tmp_path, "bomb.zip", bomb)


def test_a_zip_member_that_inflates_past_its_declared_size_is_refused(tmp_path):
    honest = zipped({"a.bin": b"\0" * 40_000})
    lying = honest.replace((40_000).to_bytes(4, "little"), (10).to_bytes(4, "little"))  # both headers say 10 bytes
    # zipfile reads no more than the declared size, so the member ends short of its checksum
    assert "'a.bin' cannot be read (Bad CRC-32" in refused(tmp_path, "liar.zip", lying)


def test_a_gzip_bomb_stops_at_the_limit(tmp_path):
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb") as stream:
        stream.write(b"\0" * 20_000_000)
    assert len(buffer.getvalue()) < LIMITS.max_bytes
    assert "unpacks to more than" in refused(tmp_path, "bomb.tar.gz", buffer.getvalue())


@pytest.mark.parametrize(("filename", "data", "reason"), [
    ("bot.exe", b"MZ", "is neither a .py file nor a folder as .zip or .tar.gz"),
    ("bot.zip", b"not a zip", "not a readable zip archive"),
    ("bot.tar.gz", b"not gzip", "not a readable .tar.gz archive"),
    ("b ot.py", b"pass", "is not a module file name"),
    (".hidden.py", b"pass", "is not a module file name"),
    ("bot.py", b"\xff\xfe", "is not UTF-8 text"),
])
def test_other_uploads_are_refused_with_a_reason(tmp_path, filename, data, reason):
    assert reason in refused(tmp_path, filename, data)


def test_a_name_both_file_and_folder_or_twice_is_refused(tmp_path):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a.py", b"1")
        archive.writestr("./a.py", b"2")
    assert "holds 'a.py' twice" in refused(tmp_path, "dup.zip", buffer.getvalue())
    assert "both as a file and as a folder" in refused(tmp_path / "x", "x.zip", zipped({"a": b"1", "a/b.py": b"2"}))
