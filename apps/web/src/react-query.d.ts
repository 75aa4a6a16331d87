import '@tanstack/react-query';

declare module '@tanstack/react-query' {
  interface Register {
    /** `silent`: the caller shows the error itself; no global notification. */
    queryMeta: { silent?: boolean };
    mutationMeta: { silent?: boolean };
  }
}
