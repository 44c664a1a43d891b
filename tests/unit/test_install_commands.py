"""The reader of the previous-versions page's source (tools/builds/install.py)."""

import re

import pytest
import yaml
from packaging.version import Version

from macros.data.builds_catalog import load_builds
from tests.conftest import PROJECT_DIR
from tools.builds.install import PageError, install_yaml, merged, read_commands

PAGE = """## 이전 버전의 PyTorch 설치하기

### v2.5.1

#### Conda

##### OSX

```
# conda
conda install pytorch==2.5.1 torchvision==0.20.1 torchaudio==2.5.1 -c pytorch
```

#####  Linux and Windows

```
# CUDA 11.8
conda install pytorch==2.5.1 torchvision==0.20.1 torchaudio==2.5.1  pytorch-cuda=11.8 -c pytorch -c nvidia
# CPU Only
conda install pytorch==2.5.1 torchvision==0.20.1 torchaudio==2.5.1 cpuonly -c pytorch
```

#### Wheel

##### OSX

```
pip install torch==2.5.1 torchvision==0.20.1 torchaudio==2.5.1
```

##### Linux and Windows

```
# ROCM 6.2 (Linux only)
pip3 install torch torchvision torchaudio --extra-index-url
pip install torch==2.5.1 torchvision==0.20.1 torchaudio==2.5.1 --index-url https://download.pytorch.org/whl/rocm6.2

# CUDA 12.4
pip install torch==2.5.1 torchvision==0.20.1 torchaudio==2.5.1 --index-url https://download.pytorch.org/whl/cu124
```

### v1.8.0

#### Conda

#####  Linux and Windows

```
# CUDA 11.1 (Windows)
# NOTE: a channel note below the build's comment
conda install pytorch==1.8.0 cudatoolkit=11.1 -c pytorch -c conda-forge
```

#### Wheel

##### Linux and Windows

```
# RocM 4.0.1 (Linux only)
pip install torch -f https://download.pytorch.org/whl/rocm4.0.1/torch_stable.html
pip install ninja

# CUDA 10.0
Download and install wheel from https://download.pytorch.org/whl/cu100/torch_stable.html
```

## Commands for Versions < 1.0.0

`conda install pytorch=0.4.1 cuda90 -c pytorch`
"""


def test_each_command_is_kept_exactly_with_its_build_and_systems_linux_and_windows_first():
    found = read_commands(PAGE)
    assert list(found) == ["2.5.1", "1.8.0"]
    assert found["2.5.1"]["pip"] == [
        {
            "build": "ROCm 6.2",
            "systems": ["linux"],
            "command": "pip install torch==2.5.1 torchvision==0.20.1 torchaudio==2.5.1 --index-url https://download.pytorch.org/whl/rocm6.2",
        },
        {
            "build": "CUDA 12.4",
            "systems": ["linux", "windows"],
            "command": "pip install torch==2.5.1 torchvision==0.20.1 torchaudio==2.5.1 --index-url https://download.pytorch.org/whl/cu124",
        },
        {"build": "default", "systems": ["macos"], "command": "pip install torch==2.5.1 torchvision==0.20.1 torchaudio==2.5.1"},
    ]
    conda = found["2.5.1"]["conda"]
    assert [(entry["build"], entry["systems"]) for entry in conda] == [
        ("CUDA 11.8", ["linux", "windows"]),
        ("CPU only", ["linux", "windows"]),
        ("default", ["macos"]),
    ]
    assert "2.5.1  pytorch-cuda=11.8" in conda[0]["command"]  # the page's double space stays


def test_older_sections_notes_sentences_and_a_build_of_several_commands():
    older = read_commands(PAGE)["1.8.0"]
    assert older["conda"] == [
        {"build": "CUDA 11.1", "systems": ["windows"], "command": "conda install pytorch==1.8.0 cudatoolkit=11.1 -c pytorch -c conda-forge"}
    ]
    assert older["pip"] == [  # the build's two commands; the sentence about downloading a wheel is no command
        {
            "build": "ROCm 4.0.1",
            "systems": ["linux"],
            "command": "pip install torch -f https://download.pytorch.org/whl/rocm4.0.1/torch_stable.html",
        },
        {"build": "ROCm 4.0.1", "systems": ["linux"], "command": "pip install ninja"},
    ]


def test_the_file_written_reads_back_as_the_commands_and_names_where_each_release_was_read():
    official = read_commands(PAGE)
    later = read_commands(PAGE.replace("v2.5.1", "v2.6.0").replace("2.5.1", "2.6.0") + PAGE.replace("cu124", "cu999"))
    commands, taken, differences = merged([("the official source at 0123abc", official), ("a copy at 4567def", later)])
    assert sorted(commands) == ["1.8.0", "2.5.1", "2.6.0"] and commands["2.5.1"] == official["2.5.1"]  # the first given wins
    assert taken == {"the official source at 0123abc": ["2.5.1", "1.8.0"], "a copy at 4567def": ["2.6.0"]}
    assert differences == [("2.5.1", 1)]  # the copy's 2.5.1 names another index: said, and left out
    text = install_yaml(commands, taken)
    header = " ".join(line.removeprefix("# ") for line in text.splitlines() if line.startswith("# "))
    assert "1.8.0 to 2.5.1 from the official source at 0123abc; 2.6.0 from a copy at 4567def." in header
    document = yaml.safe_load(text)
    assert document["source"] == "https://pytorch.org/get-started/previous-versions/"
    assert document["versions"] == commands and list(document["versions"]) == ["2.6.0", "2.5.1", "1.8.0"]  # newest first


@pytest.mark.parametrize(
    ("block", "message"),
    [
        ("# CUDA 12.4 nightly\npip install torch", "line 6: a Linux and Windows command with no build named above it"),
        ("# CUDA 12.4\n\npip install torch", "line 7: a Linux and Windows command with no build named above it"),
    ],
)
def test_a_command_whose_build_the_reader_cannot_name_is_an_error_with_its_line(block, message):
    page = f"### v2.9.0\n#### Wheel\n##### Linux and Windows\n```\n{block}\n```\n"
    with pytest.raises(PageError, match="^" + message + "$"):
        read_commands(page)


# torchvision versions the official page names that PyPI never had: conda packages (2.0.0), a ROCm build (1.10.1), the
# LTS release's own index (1.8.2), and 1.10.0's 0.11.0
NOT_ON_PYPI = {("1.10.0", "0.11.0"), ("1.10.1", "0.10.2"), ("1.8.2", "0.9.2"), ("2.0.0", "0.15.0")}


def test_the_recorded_commands_agree_with_pypi_and_each_releases_cuda_builds(real_atlas):
    """A check of the copied commands against other sources: each CUDA build of an X.Y.0's pip command is one its
    release's data names (RELEASE.md, the announcement or the page; a patch release could add one, as 1.8.1 added CUDA
    10.1; conda's cudatoolkit also came from conda-forge), and each torchvision a command names is on PyPI, but for the
    few in NOT_ON_PYPI. PyPI's listing as recorded here (data/builds/pypi.json) starts at torchvision 0.3.0 (torch 1.1)."""
    builds = load_builds(PROJECT_DIR / "data")
    checked, not_on_pypi = 0, set()
    for version, tools in builds.install["versions"].items():
        release = real_atlas.release(version.rpartition(".")[0])
        cuda = {*release.cuda.versions, *(release.cuda.experimental or ())} if release.cuda else set()
        for tool, entry in ((tool, entry) for tool, entries in tools.items() for entry in entries):
            if tool == "pip" and version.endswith(".0") and entry["build"].startswith("CUDA "):
                assert entry["build"].removeprefix("CUDA ") in cuda, f"{version}: {entry}"
            vision = re.search(r"torchvision==([\d.]+)", entry["command"])
            if vision and Version(version) >= Version("1.1") and vision[1] not in builds.pypi["torchvision"]:
                not_on_pypi.add((version, vision[1]))
            checked += 1
    assert not_on_pypi == NOT_ON_PYPI
    assert checked >= 400
