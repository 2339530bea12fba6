// @ts-check
// docs/architecture.md "The verb and its context": an exported function of src/features/ takes
// `(ctx, input)` — at most two parameters, and the instant is the context's `now`, never a
// parameter of its own. The same shape scripts/code-budget.mjs counts (`featureSignatures`):
// exported function declarations and exported `const f = (…) => …` / `function (…) {}`; a
// `this` parameter is not a parameter.

/** @typedef {import("eslint").Rule.RuleModule} RuleModule */
/** @typedef {import("estree").Node} Node */
/** @typedef {import("estree").Pattern} Pattern */

/** @param {Pattern} p */
const nameOf = (p) =>
  p.type === "Identifier"
    ? p.name
    : p.type === "AssignmentPattern" && p.left.type === "Identifier"
      ? p.left.name
      : p.type === "RestElement" && p.argument.type === "Identifier"
        ? p.argument.name
        : undefined;

/** @type {RuleModule} */
const rule = {
  meta: {
    type: "suggestion",
    docs: { description: "exported feature functions take (ctx, input): at most two parameters, no `now`" },
    schema: [],
    messages: {
      wide: '{{name}} takes {{count}} parameters: an exported feature function takes (ctx, input) — put the rest in one named input (docs/architecture.md "The verb and its context")',
      now: '{{name}} takes `now`: the instant is the context\'s (`ctx.now`, or a `Pick<Ctx, "now">`), never a parameter (docs/architecture.md "The verb and its context")',
    },
  },
  create(context) {
    /**
     * @param {string} name
     * @param {{ params: Pattern[] }} fn
     * @param {Node} node
     */
    const check = (name, fn, node) => {
      const params = fn.params.filter((p) => !(p.type === "Identifier" && p.name === "this"));
      const wide = params.length > 2;
      const withNow = params.some((p) => nameOf(p) === "now");
      if (!wide && !withNow) return;
      if (wide) context.report({ node, messageId: "wide", data: { name, count: String(params.length) } });
      if (withNow) context.report({ node, messageId: "now", data: { name } });
    };
    return {
      /** @param {any} node */
      "Program > ExportNamedDeclaration > :matches(FunctionDeclaration, TSDeclareFunction)"(node) {
        if (node.id) check(node.id.name, node, node.id);
      },
      /** @param {import("estree").VariableDeclarator} d */
      "Program > ExportNamedDeclaration > VariableDeclaration > VariableDeclarator"(d) {
        const f = d.init;
        if (
          d.id.type === "Identifier" &&
          f &&
          (f.type === "ArrowFunctionExpression" || f.type === "FunctionExpression")
        )
          check(d.id.name, f, d.id);
      },
    };
  },
};

export default rule;
