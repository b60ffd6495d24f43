// The shared cases (tests/cases/*.json) and the console's modules (tournament/static/tournament/js/), for the
// node tests of this folder: `node --test tests/js/` (bin/test runs them with the checks).
import { readFileSync } from "node:fs";

export const cases = (name) => JSON.parse(readFileSync(new URL(`../cases/${name}`, import.meta.url), "utf-8"));
export const module = (name) => import(new URL(`../../tournament/static/tournament/js/${name}`, import.meta.url));
