import { log } from "./near";

/** Logs a NEP-297 event: `EVENT_JSON:{"standard","version","event","data":[...]}`. */
export function emitEvent(standard: string, version: string, event: string, data: string[]): void {
  log(
    "EVENT_JSON:{\"standard\":\"" + standard + "\",\"version\":\"" + version + "\",\"event\":\"" + event +
      "\",\"data\":[" + data.join(",") + "]}",
  );
}
