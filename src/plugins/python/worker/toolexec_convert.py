"""Values across the JSON boundary: results made JSON-safe, arguments shaped to the annotations."""
import dataclasses
import datetime
import decimal
import enum
import inspect
import math
import pathlib
import sys
import typing


class NotSerializable(Exception):
    """A result with no JSON form; the host answers INVALID_OUTPUT with this message."""


class InvalidArguments(Exception):
    """Arguments a pydantic model refused; the host answers INVALID_INPUT with this message."""


def is_pydantic_model(tp):
    """A pydantic (v2) model class, recognised without importing pydantic."""
    return isinstance(tp, type) and callable(getattr(tp, "model_json_schema", None)) and callable(getattr(tp, "model_validate", None))


def is_uuid_type(tp):
    """uuid.UUID, without importing uuid at start (~10 ms): a UUID exists only once its module is loaded."""
    module = sys.modules.get("uuid")
    return module is not None and tp is module.UUID


def is_uuid(value):
    return is_uuid_type(type(value))


def is_context(tp):
    """The FastMCP `Context` stand-in: a parameter the worker fills, not the caller."""
    return isinstance(tp, type) and getattr(tp, "__toolexec_context__", False) is True


def json_form(value):
    """One value JSON has no type for, in its JSON form one level deep (json.dumps' `default` hook):
    dataclasses and pydantic models as objects, sets as arrays (sorted when possible), dates as ISO
    text, Decimal, UUID and paths as text, enums as their value, numpy arrays and scalars as lists
    and numbers. TypeError for anything else."""
    if isinstance(value, enum.Enum):
        return value.value
    if is_pydantic_model(type(value)):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: getattr(value, field.name) for field in dataclasses.fields(value)}
    if isinstance(value, (set, frozenset)):
        try:
            return sorted(value)  # a stable order for equal sets
        except TypeError:
            return list(value)
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        return value.total_seconds()
    if isinstance(value, (decimal.Decimal, pathlib.PurePath)) or is_uuid(value):
        return str(value)
    if type(value).__module__ == "numpy" and callable(getattr(value, "tolist", None)):
        return value.tolist()
    raise TypeError(f"{type(value).__module__}.{type(value).__qualname__}")


def to_json_safe(value, path="result"):
    """`value` made JSON-safe, or NotSerializable naming where the first value with no JSON form is.
    The worker sends results with json.dumps and `json_form`; this slower walk explains a failure."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int) and not isinstance(value, enum.Enum):
        return int(value)
    if isinstance(value, float) and not isinstance(value, enum.Enum):
        if math.isnan(value) or math.isinf(value):
            raise NotSerializable(f"{path} is {value!r}, which JSON cannot hold")
        return float(value)
    if isinstance(value, dict):
        result = {}
        for key, item in value.items():
            if isinstance(key, enum.Enum):
                key = key.value
            if not isinstance(key, (str, int, float, bool)) or key is None:
                raise NotSerializable(f"{path} has a key of type {type(key).__name__}; JSON object keys are strings")
            result[str(key) if not isinstance(key, bool) else ("true" if key else "false")] = to_json_safe(item, f"{path}[{key!r}]")
        return result
    if isinstance(value, (list, tuple)):
        return [to_json_safe(item, f"{path}[{index}]") for index, item in enumerate(value)]
    try:
        form = json_form(value)
    except TypeError:
        raise NotSerializable(f"{path} is a {type(value).__module__}.{type(value).__qualname__}, which has no JSON form; return dicts, lists, strings, numbers, dataclasses, dates or Decimals") from None
    if dataclasses.is_dataclass(value):
        return {key: to_json_safe(item, f"{path}.{key}") for key, item in form.items()}
    return to_json_safe(form, path)


_JSON_TYPES = (str, int, bool, list, dict, type(None), typing.Any, object)


def is_json_native(tp):
    """Whether a JSON value already is what `tp` names (str, int, bool, list[...] and dict[str, ...]
    of those, Literal, unions of those): its argument needs no shaping. Asked once per function."""
    if tp is None or tp is inspect.Parameter.empty or any(tp is native for native in _JSON_TYPES):
        return True
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Literal:
        return True
    if origin is typing.Annotated:
        return is_json_native(args[0])
    if origin in (list, dict) or origin is typing.Union or type(tp).__name__ == "UnionType":
        return all(is_json_native(arg) for arg in args)
    return False


def from_json(value, tp):
    """Arguments arrive as JSON; give a function the dataclasses, enums, tuples and dates it annotated."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Annotated:
        return from_json(value, args[0])
    if value is None:
        return None
    if origin is typing.Union or (origin is not None and type(tp).__name__ == "UnionType"):
        for arg in args:
            if arg is type(None):
                continue
            try:
                return from_json(value, arg)
            except Exception:
                continue
        return value
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp(value)
    if is_pydantic_model(tp):
        try:
            return tp.model_validate(value)
        except ValueError as error:  # pydantic's ValidationError is a ValueError
            # Drop pydantic's "For further information visit <url>" lines: they tell a model nothing.
            raise InvalidArguments("\n".join(line for line in str(error).splitlines() if "errors.pydantic.dev" not in line)) from None
    if dataclasses.is_dataclass(tp) and isinstance(tp, type) and isinstance(value, dict):
        hints = typing.get_type_hints(tp)
        return tp(**{key: from_json(item, hints.get(key)) for key, item in value.items()})
    if tp is datetime.datetime and isinstance(value, str):
        return datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
    if tp is datetime.date and isinstance(value, str):
        return datetime.date.fromisoformat(value)
    if tp is decimal.Decimal:
        return decimal.Decimal(str(value))
    if tp is float and isinstance(value, int):
        return float(value)
    if (origin is tuple or tp is tuple) and isinstance(value, list):
        if args and not (len(args) == 2 and args[1] is Ellipsis):
            return tuple(from_json(item, arg) for item, arg in zip(value, args))
        return tuple(from_json(item, args[0]) if args else item for item in value)
    if origin in (set, frozenset) and isinstance(value, list):
        return origin(from_json(item, args[0]) if args else item for item in value)
    if origin is list and isinstance(value, list) and args:
        return [from_json(item, args[0]) for item in value]
    if origin is dict and isinstance(value, dict) and len(args) == 2:
        return {key: from_json(item, args[1]) for key, item in value.items()}
    return value
