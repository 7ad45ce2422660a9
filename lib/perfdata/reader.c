// SPDX-License-Identifier: GPL-2.0
/* placeholder: the reader lands in the next commit */
