import { JsonWriter } from "./json";
import { log } from "./near";

/** Logs a NEP-297 event: `EVENT_JSON:{"standard","version","event","data":[...]}`. */
export function emitEvent(standard: string, version: string, event: string, data: string[]): void {
  const w = new JsonWriter(128)
    .raw("EVENT_JSON:{\"standard\":").quoted(standard)
    .raw(",\"version\":").quoted(version)
    .raw(",\"event\":").quoted(event)
    .raw(",\"data\":[");
  for (let i = 0; i < data.length; i++) {
    if (i > 0) w.char(0x2c);
    w.raw(data[i]);
  }
  log(w.raw("]}").finish());
}
