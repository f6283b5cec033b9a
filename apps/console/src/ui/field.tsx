/** A labelled input: the label names the control (tests and screen readers find it by that name). */
import type { InputHTMLAttributes } from 'react'

export function Field({ label, ...input }: InputHTMLAttributes<HTMLInputElement> & { label: string }) {
  return (
    <label>
      <span>{label}</span>
      <input {...input} />
    </label>
  )
}
