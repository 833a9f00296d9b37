"""The release manifest is signed: writing needs the release key, a manifest rewritten on
the cabinet or signed with another key fails the check, and the Machine page shows the
release key's fingerprint."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from kiosk.cli import main
from kiosk.integrity import PROGRAM_DIRS, PROGRAM_ROOT, build_manifest, check_program
from kiosk.integrity.manifest import write_manifest
from kiosk.integrity.signing import KEY_ENV, release_fingerprint

DEV_KEY = PROGRAM_ROOT / "keys" / "release-dev.ed25519"


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("signed")
    for top in PROGRAM_DIRS:
        shutil.copytree(PROGRAM_ROOT / top, root / top,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))  # fmt: skip
    write_manifest(root, version="9.9.9", key=DEV_KEY)
    return root


@pytest.fixture
def copy(tree, tmp_path) -> Path:
    return Path(shutil.copytree(tree, tmp_path / "copy"))


def manifest_of(root: Path) -> Path:
    return root / "kiosk" / "integrity" / "manifest.json"


def edit(root: Path) -> None:
    path = root / "paytables" / "standard.toml"
    path.write_bytes(path.read_bytes() + b"\n# edited\n")


def test_a_signed_manifest_checks_and_names_its_key(tree):
    check = check_program(tree, bound_s=60.0)
    assert check.ok and check.signer == release_fingerprint()
    assert release_fingerprint()[:16] in check.summary()


def test_writing_without_the_release_key_is_refused(copy, monkeypatch, capsys):
    monkeypatch.delenv(KEY_ENV, raising=False)
    before = manifest_of(copy).read_bytes()
    assert main(["verify", "manifest", "--write", "--root", str(copy)]) == 2
    err = capsys.readouterr().err
    assert "release key is needed" in err and KEY_ENV in err
    assert manifest_of(copy).read_bytes() == before
    assert main(["verify", "manifest", "--write", "--root", str(copy),
                 "--key", str(copy / "no-such-key")]) == 2  # fmt: skip
    assert "release key" in capsys.readouterr().err
    monkeypatch.setenv(KEY_ENV, str(DEV_KEY))
    assert main(["verify", "manifest", "--write", "--root", str(copy)]) == 0


def test_an_edit_with_its_manifest_rewritten_without_the_key_fails(copy):
    edit(copy)
    assert "changed paytables/standard.toml" in check_program(copy).problems
    # the digests recomputed for the edit, the old signature kept
    old = json.loads(manifest_of(copy).read_text())
    forged = {**build_manifest(copy, version="9.9.9"), "signature": old["signature"]}
    manifest_of(copy).write_text(json.dumps(forged))
    check = check_program(copy)
    assert not check.ok and "signature does not verify" in check.problems[0]
    # or no signature at all
    del forged["signature"]
    manifest_of(copy).write_text(json.dumps(forged))
    check = check_program(copy)
    assert not check.ok and "not signed" in check.problems[0]


def test_a_manifest_signed_with_another_key_fails(copy, tmp_path, capsys):
    other = tmp_path / "other.ed25519"
    other.write_bytes(Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))  # fmt: skip
    edit(copy)
    assert main(["verify", "manifest", "--write", "--root", str(copy), "--key", str(other)]) == 0
    capsys.readouterr()
    assert main(["verify", "manifest", "--root", str(copy)]) == 1
    out = capsys.readouterr().out
    assert "not the release key" in out and release_fingerprint()[:16] in out


def test_a_key_that_is_not_ed25519_is_refused(copy, tmp_path, capsys):
    from cryptography.hazmat.primitives.asymmetric import ec

    rsa = tmp_path / "ec.pem"
    rsa.write_bytes(ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))  # fmt: skip
    assert main(["verify", "manifest", "--write", "--root", str(copy), "--key", str(rsa)]) == 2
    assert "not an Ed25519 key" in capsys.readouterr().err


def test_the_readme_gives_the_release_key_and_says_the_development_key_is_public():
    readme = (PROGRAM_ROOT / "README.md").read_text(encoding="utf-8")
    assert release_fingerprint() in readme
    assert "keys/release-dev.ed25519" in readme and "public" in readme


def test_the_readme_says_what_a_power_up_check_cannot_prove_and_names_the_control():
    readme = " ".join((PROGRAM_ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "cannot prove anything against someone with root on the cabinet" in readme
    assert "The control is the digest a host seeds" in readme
    assert "SAS long poll 21" in readme and "uth verify program --seed HEX" in readme
