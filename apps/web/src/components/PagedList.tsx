import type { UseQueryResult } from '@tanstack/react-query';
import { Pagination, Table, type TableColumnsType, type TableProps } from 'antd';
import type { ReactNode } from 'react';
import { QueryState } from './QueryState';
import { useNarrow } from './useNarrow';
import './list.css';

/** One page of a paged answer, as every paged call of the contract returns it. */
export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** Server-side paging: the page shown and where a page change goes. */
export interface Paging {
  page: number;
  pageSize: number;
  total: number;
  onPage(page: number, pageSize: number): void;
}

export interface ListViewProps<T extends object> {
  rows: T[];
  columns: TableColumnsType<T>;
  rowKey: keyof T & string;
  /** A row as a phone card; it is put inside the card's `<li>`. */
  card(row: T): ReactNode;
  /** Extra class and test id of a row's card (muted cards, `data-testid`). */
  cardProps?(row: T): { className?: string; testId?: string };
  /** The card list's class (`card-list` by default). */
  listClassName?: string;
  empty: ReactNode;
  /** Accessible name of the table / card list. */
  label: string;
  /** Server-side paging; without it, more than 10 rows are paged in the table. */
  paging?: Paging | undefined;
  /** Offer 10/20/50 per page (server paging only). */
  sizeChanger?: boolean;
  /** Counter word in "共 N …" (条 by default; 个 for accounts, 家 for companies). */
  unit?: string;
  /** Cards whatever the width (side panels); by default only on phones. */
  cards?: boolean;
  size?: 'small' | 'middle';
  scrollX?: number;
  loading?: boolean;
  rowClassName?: TableProps<T>['rowClassName'];
}

const CLIENT_PAGE_SIZE = 10;

/**
 * A list the same on every screen: a table on wide screens, cards on phones (below 576 px), the
 * same paging and the same empty state in both.
 */
export function ListView<T extends object>({
  rows,
  columns,
  rowKey,
  card,
  cardProps,
  listClassName = 'card-list',
  empty,
  label,
  paging,
  sizeChanger = true,
  unit = '条',
  cards = false,
  size = 'middle',
  scrollX = 900,
  loading = false,
  rowClassName,
}: ListViewProps<T>) {
  const narrow = useNarrow();
  const showTotal = (t: number) => `共 ${t} ${unit}`;
  if (cards || narrow) {
    if (rows.length === 0) return <>{empty}</>;
    return (
      <>
        <ul className={listClassName} aria-label={label}>
          {rows.map((row) => {
            const extra = cardProps?.(row);
            return (
              <li
                key={String(row[rowKey])}
                className={extra?.className ?? 'list-card'}
                data-testid={extra?.testId}
              >
                {card(row)}
              </li>
            );
          })}
        </ul>
        {paging && paging.total > paging.pageSize ? (
          <Pagination
            className="list-pagination"
            simple
            size={size === 'small' ? 'small' : undefined}
            current={paging.page}
            pageSize={paging.pageSize}
            total={paging.total}
            onChange={paging.onPage}
          />
        ) : null}
      </>
    );
  }
  return (
    <Table<T>
      rowKey={rowKey}
      size={size}
      columns={columns}
      dataSource={rows}
      loading={loading}
      scroll={{ x: scrollX }}
      rowClassName={rowClassName}
      locale={{ emptyText: empty }}
      aria-label={label}
      pagination={
        paging
          ? {
              current: paging.page,
              pageSize: paging.pageSize,
              total: paging.total,
              showSizeChanger: sizeChanger,
              pageSizeOptions: [10, 20, 50],
              showTotal,
              responsive: true,
              showLessItems: true,
              onChange: paging.onPage,
              // A single page needs no pager, unless a smaller page size would split it.
              hideOnSinglePage: !sizeChanger || paging.total <= CLIENT_PAGE_SIZE,
            }
          : rows.length > CLIENT_PAGE_SIZE
            ? { pageSize: CLIENT_PAGE_SIZE, showTotal, responsive: true, showLessItems: true }
            : false
      }
    />
  );
}

/**
 * A server-paged query as a list, with the loading, error (with retry) and empty states around it.
 */
export function PagedList<T extends object>({
  query,
  onPage,
  rows = 5,
  ...view
}: Omit<ListViewProps<T>, 'rows' | 'paging' | 'loading'> & {
  query: UseQueryResult<Page<T>>;
  onPage(page: number, pageSize: number): void;
  /** Skeleton rows while the first page loads. */
  rows?: number;
}) {
  return (
    <QueryState query={query} rows={rows}>
      {(d) => (
        <ListView<T>
          {...view}
          rows={d.list}
          loading={query.isFetching && query.isPlaceholderData}
          paging={{ page: d.page, pageSize: d.pageSize, total: d.total, onPage }}
        />
      )}
    </QueryState>
  );
}
