import MarkdownIt from 'markdown-it'

/**
 * Knowledge docs' Markdown as the help centre shows it. Safe by construction: markdown-it with `html: false` writes
 * every `<`, `>` and quote of the source as an entity, so no tag or attribute of the author's survives (no script,
 * no event handler); links and images keep only the schemes below, anything else (`javascript:`, `vbscript:`,
 * `data:`, `file:`) is dropped with its link. Headings move one level down: the article's title is the page's h1.
 */

/** Schemes a link may have; a URL without one (relative, `#anchor`, `/path`) is the help centre's own. */
const LINK_SCHEMES = new Set(['http', 'https', 'mailto', 'tel'])
const IMAGE_SCHEMES = new Set(['http', 'https'])
const SCHEME = /^([a-z][a-z0-9+.-]*):/i

/** The scheme a browser would see: control characters and whitespace it ignores are ignored here too. */
function schemeOf(url: string): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers drop these in URLs, so must the check
  const bare = url.replace(/[\u0000-\u0020\u007f-\u009f]/g, '')
  return SCHEME.exec(bare)?.[1]?.toLowerCase()
}

export const linkAllowed = (url: string) => {
  const scheme = schemeOf(url)
  return scheme === undefined || LINK_SCHEMES.has(scheme)
}
const imageAllowed = (url: string) => {
  const scheme = schemeOf(url)
  return scheme === undefined || IMAGE_SCHEMES.has(scheme)
}

export interface HelpMarkdown {
  /** the article's body as HTML */
  render(source: string): string
  /** the article's text without markup, whitespace collapsed, cut at `max` characters (meta description, excerpts) */
  plainText(source: string, max: number): string
}

export function createHelpMarkdown(): HelpMarkdown {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false })
  md.validateLink = linkAllowed
  const rules = md.renderer.rules
  const defaultRender: NonNullable<typeof rules.link_open> = (tokens, idx, options, _env, self) =>
    self.renderToken(tokens, idx, options)

  rules.heading_open = (tokens, idx, options, env, self) => {
    const token = tokens[idx]!
    token.tag = `h${Math.min(6, Number(token.tag.slice(1)) + 1)}`
    return defaultRender(tokens, idx, options, env, self)
  }
  rules.heading_close = rules.heading_open
  // links leaving the help centre: no referrer, no opener, no endorsement
  rules.link_open = (tokens, idx, options, env, self) => {
    const token = tokens[idx]!
    if (schemeOf(String(token.attrGet('href') ?? ''))?.startsWith('http'))
      token.attrSet('rel', 'nofollow noopener noreferrer')
    return defaultRender(tokens, idx, options, env, self)
  }
  const image = rules.image!
  rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx]!
    if (!imageAllowed(String(token.attrGet('src') ?? ''))) return md.utils.escapeHtml(token.content)
    token.attrSet('loading', 'lazy')
    return image(tokens, idx, options, env, self)
  }

  return {
    render: (source) => md.render(source),
    plainText(source, max) {
      const words: string[] = []
      for (const block of md.parse(source, {})) {
        for (const t of block.children ?? []) {
          if (t.type === 'text' || t.type === 'code_inline') words.push(t.content)
        }
      }
      const text = words.join(' ').replace(/\s+/g, ' ').trim()
      return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`
    },
  }
}

/** The readable part of an article's path: Latin letters and digits of its title, dashed (none for a Chinese title). */
export function slugOf(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '')
}
