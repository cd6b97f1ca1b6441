// Builds DOM nodes. Every text goes in as a text node, never as HTML: tool names, descriptions and
// results come from MCP servers and tools, which the console must not let run script in the page.

/** `h("a", { href: "#x", onclick }, "text", child)`: an element with attributes, listeners and children. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") element.addEventListener(name.slice(2), value);
    else if (name === "class") element.className = value;
    else if (name === "value") element.value = value;
    else if (name === "checked") element.checked = Boolean(value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/** Replace what `container` shows. */
export function show(container, ...children) {
  container.replaceChildren(...children.flat(Infinity).filter((child) => child !== undefined && child !== null && child !== false));
}

/** `12.3 ms`, `1.25 s`. */
export function milliseconds(value) {
  const number = Number(value) || 0;
  return number >= 1000 ? `${(number / 1000).toFixed(2)} s` : `${Number(number.toFixed(number < 10 ? 2 : 1))} ms`;
}

/** JSON for people: indented. */
export const pretty = (value) => JSON.stringify(value, null, 2);

/** A coloured label: ok, error, a state. */
export const badge = (text, kind = text) => h("span", { class: `badge badge-${String(kind).replace(/[^a-z-]/gi, "")}` }, text);
