/* near.h - assert_near for doubles (cmocka 1.1 has only assert_float_equal
 * for floats, and none for doubles). */
#ifndef GP_TEST_NEAR_H
#define GP_TEST_NEAR_H

#include <math.h>

#define assert_near(a, b, tol)                                              \
    do {                                                                    \
        double a_ = (a), b_ = (b);                                          \
        if (!(fabs(a_ - b_) <= (tol)))                                      \
            fail_msg("%s is %.17g, wanted %.17g", #a, a_, b_);              \
    } while (0)

#endif
