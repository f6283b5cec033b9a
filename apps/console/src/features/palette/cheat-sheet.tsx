/** The "Keyboard shortcuts" dialog: every binding the console has (none uses Alt/Option+letter). */
import { useI18n } from '../../lib/i18n.tsx'
import { Modal } from './modal.tsx'
import './messages.ts'
import './palette.css'

const BINDINGS: [keys: string[][], action: string][] = [
  [
    [
      ['Ctrl', 'K'],
      ['⌘', 'K'],
    ],
    'keys.palette',
  ],
  [[['?']], 'keys.help'],
  [[['j']], 'keys.next'],
  [[['k']], 'keys.previous'],
  [[['↓'], ['↑']], 'keys.arrows'],
  [[['Enter']], 'keys.send'],
  [
    [
      ['Ctrl', 'Enter'],
      ['⌘', 'Enter'],
    ],
    'keys.note',
  ],
  [[['Shift', 'Enter']], 'keys.newline'],
  [[['Esc']], 'keys.escape'],
]

export function CheatSheet({ onClose }: { onClose(): void }) {
  const { t } = useI18n()
  return (
    <Modal label={t('keys.title')} onClose={onClose} className="cheat-sheet">
      <h2>{t('keys.title')}</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">{t('keys.key')}</th>
            <th scope="col">{t('keys.action')}</th>
          </tr>
        </thead>
        <tbody>
          {BINDINGS.map(([combos, action]) => (
            <tr key={action}>
              <td>
                {combos.map((combo, i) => (
                  <span key={combo.join('+')}>
                    {i > 0 && ' / '}
                    <kbd>
                      {combo.map((key, j) => (
                        <span key={key}>
                          {j > 0 && '+'}
                          <kbd>{key}</kbd>
                        </span>
                      ))}
                    </kbd>
                  </span>
                ))}
              </td>
              <td>{t(action)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>{t('keys.typing')}</p>
      <button type="button" onClick={onClose}>
        {t('palette.close')}
      </button>
    </Modal>
  )
}
