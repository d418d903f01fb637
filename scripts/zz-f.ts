import { readFileSync } from "node:fs";
import { mapSessionText } from "@/lib/formats/map-lines";
const m = mapSessionText(readFileSync(process.argv[2]!, "utf8"))!;
const kids = new Map<string, any[]>();
for (const e of m.entries) if (e.parentId) kids.set(e.parentId, [...(kids.get(e.parentId) ?? []), e]);
const byId = new Map(m.entries.map((e) => [e.id, e]));
const d = (e: any) => `${e.type}${e.customType ? ":" + e.customType : ""}${e.message ? ":" + e.message.role : ""}`;
let n = 0;
for (const [p, ks] of kids) if (ks.length > 1 && n++ < 8) console.log(d(byId.get(p)), "->", ks.map(d).join(" | "));
