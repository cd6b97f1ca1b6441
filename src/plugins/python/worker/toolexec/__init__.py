"""Mark Python functions as toolexec tools: `from toolexec import tool`.

toolexec puts this package on its workers' path, so a tool file needs nothing installed there. For
tests, type checkers and editors outside toolexec, install it from the npm package (it ships
py.typed): `pip install node_modules/toolexec/dist/plugins/python/worker`. The mark changes nothing
about the function: it stays an ordinary function, callable and testable as before, with its type.

    from toolexec import tool

    @tool
    def word_count(text: str) -> int:
        '''Count the words in a text.'''
        return len(text.split())

    @tool(name="fetch_page", parallel=True, timeout=10)
    def fetch(url: str) -> str: ...
"""

from typing import Any, Callable, Dict, List, Optional, TypeVar, Union, overload

__all__ = ["tool"]

F = TypeVar("F", bound=Callable[..., Any])

# Marked functions by the name of the module that defines them, in the order they were marked.
_marked: Dict[str, List[Dict[str, Any]]] = {}


def mark(function: F, *, name: Optional[str] = None, title: Optional[str] = None, description: Optional[str] = None, parallel: Optional[bool] = None, timeout: Optional[float] = None, annotations: Optional[Dict[str, Any]] = None, exclude_args: Optional[List[str]] = None) -> F:
    """Record `function` as a tool of its own module; the worker reads the record after importing it."""
    if not callable(function):
        raise TypeError(f"@tool applies to a function, got {type(function).__name__}")
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0):
        raise ValueError(f"@tool timeout is in seconds and must be a positive number, got {timeout!r}")
    if parallel is not None and not isinstance(parallel, bool):
        raise ValueError(f"@tool parallel must be True or False, got {parallel!r}")
    record = {
        "function": function,
        "name": name or function.__name__,
        "title": title,
        "description": description,
        "parallel": parallel,
        "timeout": timeout,
        "annotations": annotations,
        "exclude_args": list(exclude_args or ()),
    }
    _marked.setdefault(function.__module__, []).append(record)
    return function


@overload
def tool(function: F, /) -> F: ...
@overload
def tool(function: Optional[str] = None, /, *, name: Optional[str] = None, title: Optional[str] = None, description: Optional[str] = None, parallel: Optional[bool] = None, timeout: Optional[float] = None) -> Callable[[F], F]: ...


def tool(function: Union[F, str, None] = None, /, *, name: Optional[str] = None, title: Optional[str] = None, description: Optional[str] = None, parallel: Optional[bool] = None, timeout: Optional[float] = None) -> Union[F, Callable[[F], F]]:
    """Mark a function as a tool: `@tool`, `@tool("name")` or `@tool(name=..., timeout=5)`.

    name: the tool's name (default: the function's). description: for the model (default: the
    docstring). parallel: whether calls may overlap on several workers. timeout: seconds per call.
    """
    if isinstance(function, str):  # @tool("name"), as LangChain spells it
        name, function = function, None
    options: Dict[str, Any] = {"name": name, "title": title, "description": description, "parallel": parallel, "timeout": timeout}
    if function is not None:
        return mark(function, **options)
    return lambda decorated: mark(decorated, **options)


def marked_in(module_name: str) -> List[Dict[str, Any]]:
    """The records of the functions marked in one module, in source order."""
    return _marked.get(module_name, [])
