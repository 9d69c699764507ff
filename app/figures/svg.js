/** Build SVG elements from plain data: svg("line", {x1: 0, ...}, [children]). */
const NS = "http://www.w3.org/2000/svg";

export function svg(name, attributes = {}, children = []) {
  const element = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  element.append(...children);
  return element;
}

/** An SVG <text> whose content is set as text, never parsed. */
export function svgText(content, attributes = {}) {
  const element = svg("text", attributes);
  element.textContent = content;
  return element;
}
