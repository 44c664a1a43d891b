"""The reader of the previous-versions page's source (macros/builds/install.py)."""

import pytest
import yaml

from macros.builds.install import PageError, install_yaml, read_commands

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

### v1.7.1

#### Wheel

##### Linux and Windows

```
pip install torch==1.7.1+cu110 -f https://download.pytorch.org/whl/torch_stable.html
```
"""


def test_each_command_is_kept_exactly_with_its_build_and_systems_linux_and_windows_first():
    found = read_commands(PAGE)
    assert list(found) == ["2.5.1"]  # 1.7.1's layout is older than the reader's first version
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


def test_the_file_written_reads_back_as_the_commands_and_names_where_the_page_was_read():
    commands = read_commands(PAGE)
    text = install_yaml(commands, "owner/repo path at commit 0123abc")
    assert "owner/repo path at commit 0123abc" in text
    document = yaml.safe_load(text)
    assert document["source"] == "https://pytorch.org/get-started/previous-versions/"
    assert document["versions"] == commands


@pytest.mark.parametrize(
    ("block", "message"),
    [
        ("# CUDA 12.4 nightly\npip install torch", "line 5: a comment that names no build: '# CUDA 12.4 nightly'"),
        ("pip install torch", "line 5: a Linux and Windows command with no build named above it"),
    ],
)
def test_a_line_the_reader_does_not_understand_is_named_by_its_number(block, message):
    page = f"### v2.9.0\n#### Wheel\n##### Linux and Windows\n```\n{block}\n```\n"
    with pytest.raises(PageError, match="^" + message.replace("(", r"\(").replace(")", r"\)") + "$"):
        read_commands(page)
