// A form made from a tool's input schema: a text field for a string, a number field for a number or
// integer, a checkbox for a required boolean (a three-way choice for an optional one), a list for an
// enum, and a JSON text area for arrays, objects and anything else. A schema that is not an object
// with properties gets one JSON text area for all the arguments.
import { h } from "./dom.js";

/** The type a field is made for: the first non-null type of `type`. */
function typeOf(schema) {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.find((type) => type !== "null") ?? (schema.enum ? "enum" : undefined);
}

function fieldFor(name, schema, required) {
  const id = `field-${name}`;
  const type = typeOf(schema);
  if (Array.isArray(schema.enum)) {
    const select = h("select", { id, name }, required ? [] : h("option", { value: "" }, "(unset)"), schema.enum.map((value) => h("option", { value: JSON.stringify(value) }, typeof value === "string" ? value : JSON.stringify(value))));
    return { input: select, read: () => (select.value === "" ? undefined : JSON.parse(select.value)) };
  }
  if (type === "boolean") {
    if (required) {
      const box = h("input", { id, name, type: "checkbox", checked: schema.default === true });
      return { input: box, read: () => box.checked };
    }
    const select = h("select", { id, name }, h("option", { value: "" }, "(unset)"), h("option", { value: "true" }, "true"), h("option", { value: "false" }, "false"));
    return { input: select, read: () => (select.value === "" ? undefined : select.value === "true") };
  }
  if (type === "number" || type === "integer") {
    const input = h("input", { id, name, type: "number", step: type === "integer" ? "1" : "any", value: schema.default ?? "" });
    return {
      input,
      read: () => {
        if (input.value === "") return undefined;
        const value = Number(input.value);
        if (!Number.isFinite(value) || (type === "integer" && !Number.isInteger(value))) throw new Error(`${name}: expected ${type === "integer" ? "a whole number" : "a number"}, got ${JSON.stringify(input.value)}`);
        return value;
      },
    };
  }
  if (type === "string") {
    const long = (schema.maxLength ?? Infinity) > 200 && /text|content|body|code|query|prompt/i.test(name);
    const input = long ? h("textarea", { id, name, rows: 4 }, schema.default ?? "") : h("input", { id, name, type: "text", value: schema.default ?? "" });
    // An empty optional string is left out; an empty required one is sent as "".
    return { input, read: () => (input.value === "" && !required ? undefined : input.value) };
  }
  const area = h("textarea", { id, name, rows: 4, class: "json", placeholder: type === "array" ? "[ … ] as JSON" : "JSON" }, schema.default === undefined ? "" : JSON.stringify(schema.default, null, 2));
  return {
    input: area,
    read: () => {
      if (area.value.trim() === "") return undefined;
      try {
        return JSON.parse(area.value);
      } catch (error) {
        throw new Error(`${name}: not valid JSON (${error.message})`);
      }
    },
  };
}

/**
 * `{ element, read() }`: the form, and its values as the tool's arguments; `read` throws an Error
 * naming the field when a value cannot be read.
 */
export function buildSchemaForm(schema = {}) {
  const properties = schema && typeof schema.properties === "object" ? schema.properties : undefined;
  if (!properties || Object.keys(properties).length === 0) {
    const area = h("textarea", { id: "field-arguments", name: "arguments", rows: 6, class: "json" }, "{}");
    return {
      element: h("div", { class: "field" }, h("label", { for: "field-arguments" }, "Arguments (JSON object)"), area),
      read: () => {
        try {
          return JSON.parse(area.value || "{}");
        } catch (error) {
          throw new Error(`arguments: not valid JSON (${error.message})`);
        }
      },
    };
  }
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const fields = Object.entries(properties).map(([name, property]) => ({ name, ...fieldFor(name, property ?? {}, required.has(name)), property: property ?? {} }));
  const element = h(
    "div",
    { class: "schema-form" },
    fields.map(({ name, input, property }) =>
      h(
        "div",
        { class: "field" },
        h("label", { for: input.id }, name, required.has(name) ? h("span", { class: "required", title: "required" }, " *") : "", typeOf(property) ? h("span", { class: "muted" }, ` ${typeOf(property)}`) : ""),
        input,
        property.description ? h("small", { class: "muted" }, property.description) : "",
      ),
    ),
  );
  return {
    element,
    read() {
      const value = {};
      for (const field of fields) {
        const read = field.read();
        if (read !== undefined) value[field.name] = read;
      }
      return value;
    },
  };
}
