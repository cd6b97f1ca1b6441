"""Import hooks of the worker: `fastmcp` and `mcp.server.fastmcp` load toolexec's stand-in.

The stand-in wins even where FastMCP is installed, so a file behaves the same on every machine:
its `@mcp.tool` functions become toolexec tools. The rest of an installed `mcp` package stays the
real one; where none is installed, `mcp` and `mcp.server` are empty packages holding the stand-in.
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


def install():
    sys.meta_path.insert(0, _FastMcpAliases())
    sys.meta_path.append(_MissingParents())
