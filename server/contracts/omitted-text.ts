/** Where a cut answer's `text` leaves characters out (between its kept beginning and end). A plain function, on its own:
 * the store and the fold use it without building the conversation schemas (contracts/projects.ts). */
export const omittedTextLine = (omittedChars: number): string => `\n\n[… ${omittedChars} characters of this answer are not shown …]\n\n`;
