/**
 * The success answers of domain/contract/answers.ts written into the merged description (api/openapi.ts) where a part
 * gives the answer in words only (issue 27 point 1); the API suite then holds every answer to it
 * (tests/helpers/contract.ts).
 */
import type { ZodTypeAny } from "zod";
import { ANSWERS, type Answer, type Media } from "../domain/contract/answers";
import { payloadSchemas } from "./openapi-zod";

const isMedia = (a: unknown): a is Media => typeof a === "object" && a !== null && "media" in a;
const isAnswer = (a: unknown): a is Answer => isMedia(a) || (typeof a === "object" && a !== null && "_def" in a);

function content(answer: Answer, names: Map<ZodTypeAny, string>, where: string) {
  if (isMedia(answer)) {
    return Object.fromEntries(
      Object.entries(answer.media).map(([type, kind]) => [
        type,
        { schema: kind === "text" ? { type: "string" } : { type: "string", format: "binary" } },
      ]),
    );
  }
  const name = names.get(answer);
  if (!name) throw new Error(`openapi: the answer of ${where} is not a payload schema of domain/contract`);
  return { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } };
}

type Json = Record<string, unknown>;
/** Gives each listed operation's 2xx answers (but 204) the schema above where the description has none. */
export function applyAnswers(doc: { paths?: Record<string, Record<string, unknown>> }): void {
  const names = new Map(Object.entries(payloadSchemas()).map(([name, schema]) => [schema, name] as const));
  for (const [key, answer] of Object.entries(ANSWERS as Record<string, Answer | Record<string, Answer>>)) {
    const [method, path] = key.split(" ") as [string, string];
    const op = doc.paths?.[path]?.[method] as { responses?: Record<string, Json> } | undefined;
    if (!op) throw new Error(`openapi: no operation ${key} for its answer`);
    const responses = (op.responses ??= {});
    const byStatus: Record<string, Answer> = isAnswer(answer)
      ? Object.fromEntries(
          Object.keys(responses)
            .filter((s) => /^2/.test(s) && s !== "204")
            .map((s) => [s, answer]),
        )
      : answer;
    if (!Object.keys(byStatus).length) byStatus["200"] = answer as Answer;
    for (const [status, a] of Object.entries(byStatus)) {
      const response = (responses[status] ??= { description: "OK" });
      if (response.$ref) continue;
      const existing = (response.content ??= {}) as Record<string, Json>;
      for (const [media, value] of Object.entries(content(a, names, key))) {
        existing[media] = { ...existing[media], schema: existing[media]?.schema ?? value.schema };
      }
    }
  }
}
