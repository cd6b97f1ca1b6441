"""Import hooks of the worker.

`fastmcp` and `mcp.server.fastmcp` load toolexec's stand-in. The stand-in wins even where FastMCP is
installed, so a file behaves the same on every machine: its `@mcp.tool` functions become toolexec
tools. The rest of an installed `mcp` package stays the real one; where none is installed, `mcp` and
`mcp.server` are empty packages holding the stand-in.

Modules found in tools/ (a tool module's siblings, which it imports as it would from a script) are
contained like the tool modules themselves: one whose real path leads outside the real tools/ folder
when it is imported is refused, and one inside is loaded from its real path, so a link swapped in
after the check changes nothing.
"""
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys

_STAND_IN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "toolexec_fastmcp.py")
_ALIASES = ("fastmcp", "mcp.server.fastmcp")
_PARENTS = ("mcp", "mcp.server")


class _EmptyPackage(importlib.abc.Loader):
    def create_module(self, spec):
        return None

    def exec_module(self, module):
        module.__path__ = []


class _FastMcpAliases(importlib.abc.MetaPathFinder):
    """First on the meta path: the two FastMCP names load the stand-in."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname in _ALIASES:
            return importlib.util.spec_from_file_location(fullname, _STAND_IN)
        return None


class _MissingParents(importlib.abc.MetaPathFinder):
    """Last on the meta path: `mcp` and `mcp.server` only when no installed package provides them."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname in _PARENTS:
            return importlib.machinery.ModuleSpec(fullname, _EmptyPackage(), is_package=True)
        return None


def _inside(folder, path):
    return path == folder or path.startswith(folder + os.sep)


class _ContainedToolImports(importlib.abc.MetaPathFinder):
    """Before the path finder: a module it would find in tools/ must really be inside tools/."""

    def __init__(self, tools):
        self._tools = tools
        self._in_tools = {}  # per search entry, once (a big import asks thousands of times); the module's own path is checked every time

    def _searches_tools(self, entry):
        inside = self._in_tools.get(entry)
        if inside is None:
            inside = self._in_tools[entry] = _inside(self._tools, os.path.realpath(entry))
        return inside

    def find_spec(self, fullname, path=None, target=None):
        entries = sys.path if path is None else path
        # Only where a search can reach tools/: the tool folders on sys.path, or a package inside tools/.
        searched = [entry for entry in entries if isinstance(entry, str) and entry and self._searches_tools(entry)]
        if not searched:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, searched, target)
        if spec is None:
            return None
        if spec.origin not in (None, "namespace") and spec.has_location:
            real = os.path.realpath(spec.origin)
            if not _inside(self._tools, real):
                raise ImportError(f"Refused to import {fullname} from {spec.origin}: it leads outside tools/, to {real}", name=fullname, path=spec.origin)
            locations = spec.submodule_search_locations
            return importlib.util.spec_from_file_location(fullname, real, submodule_search_locations=None if locations is None else [os.path.dirname(real)])
        for location in spec.submodule_search_locations or []:
            if not _inside(self._tools, os.path.realpath(location)):
                raise ImportError(f"Refused to import {fullname} from {location}: it leads outside tools/, to {os.path.realpath(location)}", name=fullname, path=location)
        return spec


def install(tools=None):
    """`tools`: the project's tools/ folder (its real path is taken here); None: no containment."""
    sys.meta_path.insert(0, _FastMcpAliases())
    if tools is not None:
        finders = sys.meta_path
        at = next((index for index, finder in enumerate(finders) if finder is importlib.machinery.PathFinder), len(finders))
        finders.insert(at, _ContainedToolImports(os.path.realpath(tools)))
    sys.meta_path.append(_MissingParents())
