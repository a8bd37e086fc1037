import { z } from "zod";

/** Whether text holds a C0 control character or DEL. */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** The pages whose URL query a saved view holds. */
export const SAVED_VIEW_PAGES = ["runs", "reviewer"] as const;
export const ZSavedViewPage = z.enum(SAVED_VIEW_PAGES, { error: `expected one of ${SAVED_VIEW_PAGES.join(", ")}` });

/** At most this many saved views per project and page. */
export const MAX_SAVED_VIEWS = 100;

const ZViewName = z
  .string({ error: "expected the view's name as text" })
  .trim()
  .min(1, { error: "a view needs a name" })
  .max(80, { error: "at most 80 characters" })
  .refine((name) => !hasControl(name), { error: "no control characters" });

/**
 * A page's URL query without the leading `?` (`agent=etf-agent&sort=-findings`): at most 2,000
 * characters of query text. A `cursor` is dropped when stored (a view is filters and sort, never a
 * page position).
 */
const ZViewQuery = z
  .string({ error: "expected the page's URL query as text" })
  .max(2000, { error: "at most 2000 characters" })
  .refine((query) => !query.startsWith("?") && !hasControl(query) && !/[#\s]/.test(query), {
    error: "expected a URL query without `?`, `#`, spaces or control characters",
  });

/** Body of `POST /api/v1/views`. */
export const ZSavedViewCreate = z.object({ page: ZSavedViewPage, name: ZViewName, query: ZViewQuery });
/** Body of `PATCH /api/v1/views/:id`: a new name, a new query, or both. */
export const ZSavedViewUpdate = z
  .object({ name: ZViewName.optional(), query: ZViewQuery.optional() })
  .refine((body) => body.name !== undefined || body.query !== undefined, { error: "give a name, a query or both", path: ["name"] });
/** Query of `GET /api/v1/views`. */
export const ZSavedViewsQuery = z.object({ page: ZSavedViewPage.optional() });

export const ZSavedView = z.object({
  id: z.string(),
  page: ZSavedViewPage,
  name: z.string(),
  query: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
/** `GET /api/v1/views`: the project's saved views, by page then name. */
export const ZSavedViewList = z.object({ views: z.array(ZSavedView) });

export type TSavedViewPage = z.infer<typeof ZSavedViewPage>;
export type TSavedViewCreate = z.infer<typeof ZSavedViewCreate>;
export type TSavedViewUpdate = z.infer<typeof ZSavedViewUpdate>;
export type TSavedView = z.infer<typeof ZSavedView>;
export type TSavedViewList = z.infer<typeof ZSavedViewList>;
