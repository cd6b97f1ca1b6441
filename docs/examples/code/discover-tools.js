// Tool discovery: find a tool by what it does, read its declaration, then call it by the names found.
const matches = search_tools("convert units", 3);
const [best] = matches;
const declaration = describe_tool(`${best.server}.${best.tool}`);
const result = await tools[best.server][best.tool]({ value: 90, from: "min", to: "h" });

return {
  found: matches.map((match) => `${match.server}.${match.tool}`),
  takes_precision: declaration.includes("precision?: number"),
  unknown: describe_tool("convert"),
  result: result.text,
};
