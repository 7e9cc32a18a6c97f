"""The benchmark scripts (``benchmarks/*.py``, not a package) as modules for the tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def benchmark(name: str) -> ModuleType:
    """``benchmarks/{name}.py``, loaded once as the module ``{name}_benchmark`` (registered
    before it runs: its dataclasses look their module up)."""
    module_name = f"{name}_benchmark"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, ROOT / f"benchmarks/{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module
