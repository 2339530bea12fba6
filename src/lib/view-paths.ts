// The HTML page of a mission and of an agent: the value of `view_url`, and the URLs
// the sitemap and the feeds list. Kept free of imports so any feature may use it.
export const missionViewPath = (id: string) => `/m/${id}`;
