import t from 'tap'
import {
  checkPattern,
  matchWithinBudget,
  REGEX_BUDGET_MS,
  REGEX_INPUT_MAX,
  unsafeShape,
} from '../../src/domain/safe-regex.ts'

t.test('nested quantifiers and backreferences are refused by shape', async (t) => {
  for (const bad of [
    '(a+)+',
    '(a*)*',
    '(.*){3}',
    '(a?){9}a{9}',
    '^(\\w+\\s?)*$',
    '((ab)+)+',
    '(?:x+)+y',
    '(a|b+)*',
    '([a-z]+)*',
    '(a)\\1',
    '(?<n>a)\\k<n>',
    '((a+))*',
  ]) {
    t.ok(unsafeShape(bad), `${bad} refused`)
    t.notOk(checkPattern(bad).ok, `${bad} not compiled`)
  }
})

t.test('ordinary patterns pass', async (t) => {
  for (const good of [
    '^[A-Z]{2}-\\d{4}$',
    '^(foo|bar)+$',
    '^\\+?[0-9 ]{6,20}$',
    '(ab)?c+',
    '^[a-z(]+$',
    '[+*]{2}',
    '^(?:[a-z]{2}\\d)+$',
    'a{2,}b',
    '\\(a+\\)+',
    '^(?<code>[A-Z]{3})$',
    '(?=x)x+',
  ]) {
    const check = checkPattern(good)
    t.ok(check.ok, `${good} accepted${check.ok ? '' : `: ${check.reason}`}`)
  }
})

t.test('length and syntax are checked', async (t) => {
  t.match(checkPattern('a'.repeat(201)), { ok: false, reason: /200/ })
  t.match(checkPattern('(a'), { ok: false, reason: /not a valid regular expression/ })
  t.match(checkPattern('\\-'), { ok: false }, 'Unicode mode refuses identity escapes of letters-less chars')
})

t.test('matching runs within a time budget on inputs up to the bound', async (t) => {
  const ok = checkPattern('^[a-z]+@[a-z]+\\.[a-z]{2,}$')
  if (!ok.ok) throw new Error('expected ok')
  t.equal(matchWithinBudget(ok.regex, 'ann@example.com'), true)
  t.equal(matchWithinBudget(ok.regex, 'ann@example'), false)
  t.equal(matchWithinBudget(ok.regex, 'x'.repeat(REGEX_INPUT_MAX + 1)), 'too_long')

  // a polynomial pattern the shape check lets through is cut off by the budget instead of stalling the process
  const slow = checkPattern('^\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*x$')
  if (!slow.ok) throw new Error(`expected the shape check to pass it: ${slow.reason}`)
  const started = performance.now()
  const result = matchWithinBudget(slow.regex, '1'.repeat(REGEX_INPUT_MAX))
  const took = performance.now() - started
  t.equal(result, 'timeout')
  t.ok(took < REGEX_BUDGET_MS * 2 + 500, `gave up after ${took.toFixed(1)} ms (two attempts)`)

  // the classic exponential pattern, had it passed, would be bounded the same way
  t.equal(matchWithinBudget(/^(a+)+$/, `${'a'.repeat(40)}!`), 'timeout')
  t.equal(matchWithinBudget(ok.regex, 'bob@example.org'), true, 'the matcher still works after a timeout')
})
