import { describe, expect, it } from 'vitest'
import { t } from '../i18n/i18n'
import { askedBy } from './askedby'

describe('askedBy', () => {
  it('names the person and their departments', () => {
    const who = askedBy({ user_id: 'zhangsan', name: '张三', departments: ['研发部'] })
    expect(who).toBe('张三 · 研发部')
    expect(t('en', 'runs.asked_by', { who })).toBe('Asked by 张三 · 研发部')
    expect(t('zh-CN', 'runs.asked_by', { who })).toBe('提问人 张三 · 研发部')
  })

  it('lists several departments and leaves out unnamed ones', () => {
    expect(askedBy({ user_id: 'lisi', name: '李四', departments: ['市场部', '', '研发部'] })).toBe('李四 · 市场部, 研发部')
    expect(askedBy({ user_id: 'lisi', name: '李四' })).toBe('李四')
  })

  it('is empty without a name, so the chat id is shown instead', () => {
    expect(askedBy({ user_id: 'zhangsan' })).toBe('')
    expect(askedBy({ user_id: 'zhangsan', name: ' ', departments: ['研发部'] })).toBe('')
    expect(askedBy(undefined)).toBe('')
    expect(askedBy(null)).toBe('')
  })
})
