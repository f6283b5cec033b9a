import { html, htmlDocument, type SafeHtml, trustedHtml } from '@switchboard/platform'
import type { PublicSurvey } from '../schemas/csat.schemas.ts'
import type { CsatLocale, CsatMessages } from './csat-messages.ts'

export interface CsatContext {
  locale: CsatLocale
  m: CsatMessages
  /** `/csat/<token>`, encoded */
  path: string
  /** `?lang=` was given: the form's action and the redirect carry it on */
  langParam: CsatLocale | undefined
}

export const withLang = (ctx: CsatContext, path: string) =>
  ctx.langParam ? `${path}?lang=${encodeURIComponent(ctx.langParam)}` : path

/** A survey page is nobody's to index or keep: its address is a credential. */
function page(ctx: CsatContext, title: string, description: string, body: SafeHtml) {
  return htmlDocument(
    {
      lang: ctx.locale,
      title: `${title} · ${ctx.m.siteName}`,
      description,
      siteName: ctx.m.siteName,
      robots: 'noindex',
    },
    body,
  )
}

export interface FormState {
  /** the rating to show chosen (from `?rating=` or the answer sent back) */
  rating?: number | undefined
  comment?: string | undefined
  /** what was wrong with the answer sent */
  error?: string | undefined
}

export const COMMENT_MAX = 2000

/** The survey: the ticket's title and agent, five labelled choices, a comment, a plain form posting to itself. */
export function surveyPage(ctx: CsatContext, survey: PublicSurvey, state: FormState = {}): string {
  const { m } = ctx
  const about = survey.agent_name
    ? m.about(survey.ticket_title, survey.agent_name)
    : m.aboutNoAgent(survey.ticket_title)
  const choices = m.ratings.map((words, i) => {
    const value = i + 1
    const checked = state.rating === value ? trustedHtml(' checked') : ''
    return html`<label><input type="radio" name="rating" value="${value}" required${checked}> ${value} – ${words}</label>`
  })
  return page(
    ctx,
    m.title,
    m.description,
    html`<h1>${m.title}</h1>
<p>${about}</p>
${state.error ? html`<p role="alert" id="form-error"><strong>${state.error}</strong></p>` : ''}
<form method="post" action="${withLang(ctx, ctx.path)}">
<fieldset class="choices"${state.error ? trustedHtml(' aria-describedby="form-error"') : ''}>
<legend>${m.ratingLegend}</legend>
${choices}
</fieldset>
<p><label for="comment">${m.commentLabel}</label></p>
<textarea id="comment" name="comment" maxlength="${COMMENT_MAX}" aria-describedby="comment-hint">${state.comment ?? ''}</textarea>
<p class="muted" id="comment-hint">${m.commentHint}</p>
<p><button type="submit">${m.submit}</button></p>
</form>`,
  )
}

export function thanksPage(ctx: CsatContext): string {
  return page(ctx, ctx.m.thanksTitle, ctx.m.thanksText, html`<h1>${ctx.m.thanksTitle}</h1>\n<p>${ctx.m.thanksText}</p>`)
}

export type CsatRefusal = 400 | 404 | 409 | 410

/** A survey that cannot be answered, in words: unknown 404, already answered 409, expired 410, unreadable 400. */
export function refusalPage(ctx: CsatContext, status: CsatRefusal): string {
  const { m } = ctx
  const words: Record<CsatRefusal, [title: string, text: string]> = {
    400: [m.badRequestTitle, m.badRequestText],
    404: [m.unknownTitle, m.unknownText],
    409: [m.answeredTitle, m.answeredText],
    410: [m.expiredTitle, m.expiredText],
  }
  const [title, text] = words[status]
  return page(ctx, title, text, html`<h1>${title}</h1>\n<p>${text}</p>`)
}
