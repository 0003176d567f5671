import { phrase, type Phrase } from './phrase';

/**
 * The questions the read rule asks (see policy.ts), as phrases the VS Code side shows in the
 * person's language. Each verb has sentences of its own rather than a word put into one: other
 * languages conjugate and place a verb as English does not.
 *
 * A title is one plain line (chat shows it as Markdown in its card and as plain text in the
 * Sessions list, a dialog as plain text): it names no tool and no path, so no underscore or
 * asterisk of theirs can be taken for emphasis. A message is Markdown: `{0}` is the tool and
 * `{1}` the path, each given as a code span.
 */

/** What the tool does with the path, as the question says it. */
export type QuestionVerb = 'read' | 'list' | 'search' | 'edit' | 'write' | 'change' | 'revert';

export interface QuestionWords {
  title: Phrase;
  message: (tool: string, path: string) => Phrase;
}

/** Per verb: the question for a path outside the workspace, for a file that may hold secrets, and for both. */
export const QUESTIONS: Record<QuestionVerb, { outside: QuestionWords; sensitive: QuestionWords; both: QuestionWords }> = {
  read: {
    outside: {
      title: phrase('Allow Agent File Tools to read outside the workspace?'),
      message: (tool, path) => phrase('{0} wants to read {1}, which is outside the workspace folders.', tool, path),
    },
    sensitive: {
      title: phrase('Allow Agent File Tools to read a sensitive file?'),
      message: (tool, path) => phrase('{0} wants to read {1}, which may hold secrets (it matches the `agentFileTools.sensitiveFiles` setting).', tool, path),
    },
    both: {
      title: phrase('Allow Agent File Tools to read a sensitive file outside the workspace?'),
      message: (tool, path) => phrase('{0} wants to read {1}, which is outside the workspace folders and may hold secrets (it matches the `agentFileTools.sensitiveFiles` setting).', tool, path),
    },
  },
  list: {
    outside: {
      title: phrase('Allow Agent File Tools to list outside the workspace?'),
      message: (tool, path) => phrase('{0} wants to list {1}, which is outside the workspace folders.', tool, path),
    },
    sensitive: {
      title: phrase('Allow Agent File Tools to list a sensitive file?'),
      message: (tool, path) => phrase('{0} wants to list {1}, which may hold secrets (it matches the `agentFileTools.sensitiveFiles` setting).', tool, path),
    },
    both: {
      title: phrase('Allow Agent File Tools to list a sensitive file outside the workspace?'),
      message: (tool, path) => phrase('{0} wants to list {1}, which is outside the workspace folders and may hold secrets (it matches the `agentFileTools.sensitiveFiles` setting).', tool, path),
    },
  },
  search: {
    outside: {
      title: phrase('Allow Agent File Tools to search outside the workspace?'),
      message: (tool, path) => phrase('{0} wants to search {1}, which is outside the workspace folders.', tool, path),
    },
    sensitive: {
      title: phrase('Allow Agent File Tools to search a sensitive file?'),
      message: (tool, path) => phrase('{0} wants to search {1}, which may hold secrets (it matches the `agentFileTools.sensitiveFiles` setting).', tool, path),
    },
    both: {
      title: phrase('Allow Agent File Tools to search a sensitive file outside the workspace?'),
      message: (tool, path) => phrase('{0} wants to search {1}, which is outside the workspace folders and may hold secrets (it matches the `agentFileTools.sensitiveFiles` setting).', tool, path),
    },
  },
  edit: {
    outside: {
      title: phrase('Allow Agent File Tools to edit outside the workspace?'),
      message: (tool, path) => phrase('{0} wants to edit {1}, which is outside the workspace folders.', tool, path),
    },
    sensitive: {
      title: phrase('Allow Agent File Tools to edit a sensitive file?'),
      message: (tool, path) => phrase('{0} wants to edit {1}, which may hold secrets (it matches the `agentFileTools.sensitiveFiles` setting).', tool, path),
    },
    both: {
      title: phrase('Allow Agent File Tools to edit a sensitive file outside the workspace?'),
      message: (tool, path) => phrase('{0} wants to edit {1}, which is outside the workspace folders and may hold secrets (it matches the `agentFileTools.sensitiveFiles` setting).', tool, path),
    },
  },
  write: {
    outside: {
      title: phrase('Allow Agent File Tools to write outside the workspace?'),
      message: (tool, path) => phrase('{0} wants to write {1}, which is outside the workspace folders.', tool, path),
    },
    sensitive: {
      title: phrase('Allow Agent File Tools to write a sensitive file?'),
      message: (tool, path) => phrase('{0} wants to write {1}, which may hold secrets (it matches the `agentFileTools.sensitiveFiles` setting).', tool, path),
    },
    both: {
      title: phrase('Allow Agent File Tools to write a sensitive file outside the workspace?'),
      message: (tool, path) => phrase('{0} wants to write {1}, which is outside the workspace folders and may hold secrets (it matches the `agentFileTools.sensitiveFiles` setting).', tool, path),
    },
  },
  change: {
    outside: {
      title: phrase('Allow Agent File Tools to change outside the workspace?'),
      message: (tool, path) => phrase('{0} wants to change {1}, which is outside the workspace folders.', tool, path),
    },
    sensitive: {
      title: phrase('Allow Agent File Tools to change a sensitive file?'),
      message: (tool, path) => phrase('{0} wants to change {1}, which may hold secrets (it matches the `agentFileTools.sensitiveFiles` setting).', tool, path),
    },
    both: {
      title: phrase('Allow Agent File Tools to change a sensitive file outside the workspace?'),
      message: (tool, path) => phrase('{0} wants to change {1}, which is outside the workspace folders and may hold secrets (it matches the `agentFileTools.sensitiveFiles` setting).', tool, path),
    },
  },
  revert: {
    outside: {
      title: phrase('Allow Agent File Tools to revert outside the workspace?'),
      message: (tool, path) => phrase('{0} wants to revert {1}, which is outside the workspace folders.', tool, path),
    },
    sensitive: {
      title: phrase('Allow Agent File Tools to revert a sensitive file?'),
      message: (tool, path) => phrase('{0} wants to revert {1}, which may hold secrets (it matches the `agentFileTools.sensitiveFiles` setting).', tool, path),
    },
    both: {
      title: phrase('Allow Agent File Tools to revert a sensitive file outside the workspace?'),
      message: (tool, path) => phrase('{0} wants to revert {1}, which is outside the workspace folders and may hold secrets (it matches the `agentFileTools.sensitiveFiles` setting).', tool, path),
    },
  },
};

/** fs_list reading the index of a repository outside the workspace (`source: "git"`). */
export const GIT_INDEX_OUTSIDE: QuestionWords = {
  title: QUESTIONS.read.outside.title,
  message: (tool, path) => phrase('{0} wants to read the git index in {1}, which is outside the workspace folders.', tool, path),
};
