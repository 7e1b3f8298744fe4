/** An entry as read from the file (its JSON text, parsed when it is asked for), or as recalled or put since. */
export type Entry = { readonly key: string; readonly text: string } | { readonly key: string; readonly value: unknown };
