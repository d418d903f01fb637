/**
 * The whole inline script of the HTML export: the tree part and the path part inside one
 * strict-mode function scope, started once the document is parsed (the script is the last
 * element of <body>). See page-script-tree.ts and page-script-path.ts for the contracts.
 */
import { PATH_SCRIPT } from "@/lib/export-html/page-script-path";
import { TREE_SCRIPT } from "@/lib/export-html/page-script-tree";

export const PAGE_SCRIPT = `(function () {\n"use strict";\n${TREE_SCRIPT}\n${PATH_SCRIPT}\nstart();\n})();\n`;
