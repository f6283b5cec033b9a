/** A native modal `<dialog>` shown on mount; Escape (its `cancel`, or the `close` that follows) calls `onClose`. */
import { type ReactNode, useEffect, useRef } from 'react'

export function Modal({
  label,
  onClose,
  className,
  children,
  initialFocus,
}: {
  label: string
  onClose(): void
  className?: string
  children: ReactNode
  /** what takes focus when the dialog opens (else the first focusable element, as showModal does) */
  initialFocus?: React.RefObject<HTMLElement | null>
}) {
  const ref = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const dialog = ref.current
    // not closed in a cleanup: unmounting removes it from the top layer, and StrictMode's second run finds it open
    if (dialog && !dialog.open) dialog.showModal()
    initialFocus?.current?.focus()
  }, [initialFocus])
  return (
    <dialog
      ref={ref}
      aria-label={label}
      className={`modal ${className ?? ''}`}
      onCancel={(event) => {
        event.preventDefault()
        onClose()
      }}
      onClose={onClose}
    >
      {children}
    </dialog>
  )
}
