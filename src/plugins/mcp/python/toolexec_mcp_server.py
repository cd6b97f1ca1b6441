"""Runs a Python MCP server file over stdio, as `fastmcp run file.py` and `mcp run file.py` do.

toolexec starts it for an mcp.json entry with `"python": {"server": "file.py[:object]"}`, in the
entry's own environment:

    python toolexec_mcp_server.py <file.py> <object or ""> [server args...]

The file is imported as a module (its `if __name__ == "__main__":` block does not run), its server
object is found — the one named after the colon, else `mcp`, `server` or `app`, else the only one at
module level — and run on stdio. A server object is a `FastMCP` of the `mcp` SDK 1.x
(`mcp.server.fastmcp`) or of the standalone `fastmcp` package, or an `MCPServer` of the `mcp` SDK
2.x (`mcp.server.mcpserver`). A file without one exits with code 2 and says so on stderr: the host
shows that line as the reason the server failed.
"""

import importlib.util
import inspect
import os
import sys

NOT_A_SERVER = 2
SERVER_CLASSES = {
    ("mcp.server.fastmcp", "FastMCP"): "FastMCP (mcp SDK 1.x)",
    ("fastmcp", "FastMCP"): "FastMCP (fastmcp)",
    ("mcp.server.mcpserver", "MCPServer"): "MCPServer (mcp SDK 2.x)",
}
CONVENTIONAL_NAMES = ("mcp", "server", "app")


def fail(message):
    sys.stderr.write(f"toolexec: {message}\n")
    sys.stderr.flush()
    sys.exit(NOT_A_SERVER)


def server_kind(value):
    """The server class `value` is an instance of, in words, or None."""
    for cls in type(value).__mro__:
        module = cls.__module__ or ""
        for (package, name), words in SERVER_CLASSES.items():
            if cls.__name__ == name and (module == package or module.startswith(package + ".")):
                return words
    return None


def load(path):
    folder = os.path.dirname(os.path.abspath(path))
    # As `python file.py` would: the file's folder first, so its sibling modules import.
    sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location("toolexec_served_module", path)
    if spec is None or spec.loader is None:
        fail(f"{path} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def find_server(module, path, name):
    if name:
        if not hasattr(module, name):
            fail(f"{path} has no {name!r} at module level (named in \"server\": \"...:{name}\")")
        value = getattr(module, name)
        if server_kind(value) is None:
            fail(f"{path}:{name} is a {type(value).__name__}, not an MCP server: expected " + ", ".join(SERVER_CLASSES.values()))
        return value
    for conventional in CONVENTIONAL_NAMES:
        value = getattr(module, conventional, None)
        if value is not None and server_kind(value) is not None:
            return value
    found = [key for key, value in vars(module).items() if not key.startswith("_") and server_kind(value) is not None]
    if len(found) == 1:
        return getattr(module, found[0])
    if len(found) > 1:
        fail(f"{path} defines {len(found)} MCP servers ({', '.join(found)}): name one as \"server\": \"{path}:{found[0]}\"")
    fail(
        f"{path} is not an MCP server file: it defines no server object at module level. Expected one of "
        + ", ".join(SERVER_CLASSES.values())
        + ', e.g. `mcp = FastMCP("name")` (a pythonModules file in tools.json serves plain functions)'
    )


def main():
    if len(sys.argv) < 3:
        fail("usage: toolexec_mcp_server.py <file.py> <object or \"\"> [args...]")
    path, name, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
    sys.argv = [path, *rest]
    # Messages name the file as mcp.json does: relative to the server's folder (the project) when inside it.
    relative = os.path.relpath(path)
    shown = path if relative.startswith("..") else relative
    server = find_server(load(path), shown, name)
    accepted = inspect.signature(server.run).parameters
    options = {"show_banner": False} if "show_banner" in accepted else {}
    server.run("stdio", **options)


if __name__ == "__main__":
    main()
